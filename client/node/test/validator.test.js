// Validator across two replicas that share nothing.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { Client, ErrorCode, Profile, SchemaError, status } from '../index.js';
import { connect, replicaAddress, SwitchChannel, unique } from './support.js';

const WEATHER = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'] };

describe('Validator', () => {
  const direct = {};
  let switchChannel;
  let validator;
  before(() => {
    direct.A = connect('A');
    direct.B = connect('B');
    switchChannel = new SwitchChannel({ A: replicaAddress('A'), B: replicaAddress('B') });
  });
  after(() => {
    direct.A.close();
    direct.B.close();
    switchChannel.close();
  });
  beforeEach(() => {
    validator = new Client('switch', { insecure: true, clientOptions: { channelOverride: switchChannel } }).validator();
  });

  const assertNotHeld = (replica, handle) =>
    assert.rejects(direct[replica].validate(handle, '{}'), { code: status.NOT_FOUND }, `replica ${replica} holds ${handle}`);

  test('survives a replica without the handle', async () => {
    switchChannel.route('A');
    const { handle } = await validator.register(unique(WEATHER));
    await assertNotHeld('B', handle);

    switchChannel.route('B'); // the balancer moves the client to B
    const result = await validator.validate(handle, { city: 'Oslo' });
    assert.equal(result.valid, true);
    assert.equal(result.handle, handle, 'B computed the handle A computed');
    assert.equal((await direct.B.validate(handle, { city: 'Oslo' })).valid, true, 'B compiled the schema the Validator sent inline');

    const bad = await validator.validate(handle, '{"city": "Oslo", "days": 0}');
    assert.equal(bad.valid, false, 'violations are still answers');
    assert.deepEqual(bad.errors.map((e) => [e.code, e.keyword, e.instance_path]), [[ErrorCode.VALIDATION, 'minimum', '/days']]);
  });

  test("the retry has what is left of the caller's deadline, not a new one", async () => {
    // A deadline is a point in time (a Date or milliseconds since the
    // epoch): the NOT_FOUND call and its retry both end by it, and so does
    // validate().
    const deadlines = [];
    const record = (options, nextCall) => {
      deadlines.push([options.method_definition.path.split('/').pop(), options.deadline]);
      return nextCall(options);
    };
    // Not closed, as the other Validators' clients are not: the channel is the suite's.
    const recorded = new Client('switch', { insecure: true, clientOptions: { channelOverride: switchChannel, interceptors: [record] } }).validator();
    for (const deadline of [Date.now() + 30_000, new Date(Date.now() + 30_000)]) {
      switchChannel.route('A');
      const { handle } = await recorded.register(unique(WEATHER));
      switchChannel.route('B');
      deadlines.length = 0;
      assert.equal((await recorded.validate(handle, { city: 'Oslo' }, { deadline })).valid, true);
      assert.deepEqual(deadlines, [['Validate', deadline], ['Validate', deadline]]);
    }
  });

  test('recovers concurrently', async () => {
    switchChannel.route('A');
    const { handle } = await validator.register(unique(WEATHER));
    switchChannel.route('B');
    const results = await Promise.all(Array.from({ length: 32 }, () => validator.validate(handle, { city: 'Oslo' })));
    assert.ok(results.every((r) => r.valid && r.handle === handle));
  });

  test('NOT_FOUND for handles it does not know', async () => {
    switchChannel.route('A');
    const { handle } = await direct.A.compile(unique(WEATHER));
    const { handle: forgotten } = await validator.register(unique(WEATHER));
    validator.forget(forgotten);
    switchChannel.route('B');
    for (const h of [handle, forgotten]) {
      await assert.rejects(validator.validate(h, { city: 'Oslo' }), { code: status.NOT_FOUND });
    }
  });

  test('validateSchema remembers the handle', async () => {
    const schema = unique(WEATHER);
    switchChannel.route('A');
    const first = await validator.validateSchema(schema, { city: 'Oslo' });
    assert.equal(first.valid, true);
    switchChannel.route('B');
    await assertNotHeld('B', first.handle);
    const second = await validator.validateSchema(schema, { days: 2 });
    assert.deepEqual(second.errors.map((e) => e.keyword), ['required']);
    assert.equal(second.handle, first.handle);
    assert.equal((await direct.B.validate(first.handle, { city: 'Oslo' })).valid, true);
  });

  test('a schema that does not compile', async () => {
    switchChannel.route('A');
    const schema = { type: 'object', properties: { url: { type: 'string', format: 'uri' } } };
    await assert.rejects(validator.register(schema), (err) => {
      assert.ok(err instanceof SchemaError && err instanceof Error);
      assert.equal(err.result.code, ErrorCode.UNSUPPORTED_CAPABILITY);
      assert.deepEqual(err.result.errors.map((e) => e.schema_path), ['/properties/url/format']);
      assert.match(err.message, /format/);
      return true;
    });
    const answer = await validator.validateSchema(schema, {});
    assert.equal(answer.valid, false);
    assert.equal(answer.handle, '');
  });

  test('validateSchema tells compile options apart', async () => {
    // The same schema text with and without format assertion, or with other
    // resources, is another schema: each has its own handle and verdict, on
    // either replica.
    const uri = 'https://example.com/toolgate-interop/on.json';
    const schema = unique({ $ref: uri });
    const date = { type: 'object', properties: { on: { type: 'string', format: 'date' } } };
    const required = { ...date, required: ['on'] };
    const cases = [
      // [resource, format asserted, arguments, valid]
      [date, true, { on: 'soon' }, false],
      [date, false, { on: 'soon' }, true],
      [required, false, {}, false],
      [date, false, {}, true],
    ];
    const handles = new Set();
    for (const replica of ['A', 'B']) {
      switchChannel.route(replica);
      for (const [resource, formatAssertion, args, valid] of cases) {
        const result = await validator.validateSchema(schema, args, { profile: Profile.JSON_SCHEMA, formatAssertion, resources: { [uri]: resource } });
        assert.equal(result.valid, valid, `${replica}: ${JSON.stringify([resource, formatAssertion, args])}`);
        handles.add(result.handle);
      }
    }
    assert.equal(handles.size, 3, 'date with and without assertion, and required: three schemas');
  });

  test('other failures are rejections as they are', async () => {
    const client = connect('A');
    const v = client.validator();
    const { handle } = await v.register(unique(WEATHER));
    client.close();
    await assert.rejects(v.validate(handle, { city: 'Oslo' }), (err) => err.code !== status.NOT_FOUND);
  });
});

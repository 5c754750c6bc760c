// Client against a real replica: compile, validate, typed codes and paths.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, test } from 'node:test';

import { Client, ErrorCode, Profile, status } from '../index.js';
import { connect, offsetOf, replicaAddress, unique } from './support.js';

const TODO = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['add', 'update', 'complete', 'list'] },
    id: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
  },
  required: ['action'],
  additionalProperties: false,
};

const summary = (errors) => errors.map((e) => [e.keyword, e.schema_path, e.instance_path, e.offset]);

describe('Client', () => {
  let client;
  before(() => {
    client = connect('A');
  });
  after(() => client.close());

  test('validate: good and bad arguments, with typed codes and paths', async () => {
    const { handle } = await client.compile(TODO);
    assert.match(handle, /^tg1_[0-9a-f]{64}$/);
    const bad = '{"action": "update", "status": "done", "due": "friday"}';
    const nested = '{"action": "update", "id": 7}';
    const broken = '{"action": add}';
    const cases = [
      ['valid text', '{"action": "update", "id": "7", "status": "completed"}', []],
      ['valid object', { action: 'list' }, []],
      // "" is validated as {}: a missing name is reported at the closing brace
      ['empty means {}: action is missing', '', [['required', '/required', '', offsetOf('{}', '}')]]],
      ['every violation, in byte order', bad, [
        // the byte of "done" that leaves every enum choice, and the first
        // byte of the name the closed object does not declare
        ['enum', '/properties/status/enum', '/status', offsetOf(bad, '"done"', 1)],
        ['additionalProperties', '/additionalProperties', '', offsetOf(bad, '"due"', 1)],
      ]],
      ["wrong type at the value's first byte", nested, [['type', '/properties/id/type', '/id', offsetOf(nested, '7')]]],
      ['not JSON', broken, [['json', '', '/action', offsetOf(broken, 'add')]]],
    ];
    for (const [name, args, want] of cases) {
      const result = await client.validate(handle, args);
      assert.equal(result.valid, want.length === 0, name);
      assert.equal(result.code, want.length === 0 ? ErrorCode.UNSPECIFIED : ErrorCode.VALIDATION, name);
      assert.equal(result.handle, handle, name);
      assert.deepEqual(summary(result.errors), want, name);
      for (const error of result.errors) {
        assert.equal(error.code, ErrorCode.VALIDATION, name);
        assert.equal(typeof error.offset, 'number', name);
      }
    }
  });

  test('a plain object schema is sent whole, never as an empty Struct', async () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false };
    const result = await client.validateSchema(schema, { rm: '-rf /', n: 5 });
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors.map((e) => e.keyword), ['additionalProperties', 'additionalProperties']);
    assert.equal(result.handle, (await client.compile(schema)).handle, 'object and compile agree on the schema');
  });

  test('a lone surrogate is refused here, in text and in objects; the server refuses its escape', async () => {
    // protobufjs would send the text's surrogate as bytes that are not
    // UTF-8, and the server would fail the whole call; JSON.stringify would
    // write an object's as the escape \ud800, which the server refuses as
    // JSON (keyword "json"): both are a TypeError here, before sending.
    const schema = { type: 'object', properties: { id: { type: 'string' } } };
    await assert.rejects(client.validateSchema(schema, '{"id": "\ud800"}'), /^TypeError: arguments holds a lone surrogate/);
    await assert.rejects(client.compile('{"description": "\udc00"}'), /^TypeError: schema holds a lone surrogate/);
    await assert.rejects(client.validateSchema(schema, { id: '\ud800' }), /^TypeError: arguments\.id holds a lone surrogate/);
    await assert.rejects(client.compile({ description: 'Weather \ud83c' }), /^TypeError: schema\.description holds a lone surrogate/);
    // The escape itself, in text, is the server's to judge, and it refuses it.
    const result = await client.validateSchema(schema, '{"id": "\\ud800"}');
    assert.deepEqual([result.valid, result.errors.map((e) => e.keyword)], [false, ['json']]);
    const compiled = await client.compile('{"description": "\\ud83c"}');
    assert.deepEqual([compiled.handle, compiled.code, compiled.errors.map((e) => e.keyword)], ['', ErrorCode.VALIDATION, ['json']]);
  });

  test('numbers in schema text stay exact', async () => {
    // 2**53 + 1 is not a double: sent as text it is kept, where a client
    // that went through a double would accept 2**53.
    const { handle } = await client.compile('{"type": "object", "properties": {"n": {"type": "integer", "minimum": 9007199254740993}}}');
    assert.equal((await client.validate(handle, '{"n": 9007199254740992}')).valid, false);
    assert.equal((await client.validate(handle, '{"n": 9007199254740993}')).valid, true);
  });

  test('compile findings', async () => {
    const result = await client.compile('{"type": "object", "properties": {"url": {"type": "string", "format": "uri"}, "n": {"type": 5}}}');
    assert.equal(result.handle, '');
    assert.equal(result.code, ErrorCode.UNSUPPORTED_CAPABILITY);
    assert.deepEqual(result.errors.map((e) => [e.code, e.keyword, e.schema_path]), [
      [ErrorCode.UNSUPPORTED_CAPABILITY, 'format', '/properties/url/format'],
      [ErrorCode.VALIDATION, 'type', '/properties/n/type'],
    ]);
  });

  test('profiles by name', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string', title: 'A' } } };
    const bindable = await client.compile(schema, { profile: Profile.OUTPUT_BINDABLE });
    assert.notEqual(bindable.handle, '');
    assert.deepEqual(bindable.warnings.map((w) => [w.keyword, w.schema_path]), [['title', '/properties/a/title']]);
    assert.equal((await client.compile(schema)).code, ErrorCode.UNSUPPORTED_CAPABILITY, 'title is refused by the tool input profile');
    await assert.rejects(client.compile(schema, { profile: 'output_bindable' }), TypeError);
  });

  test('an unknown handle is NOT_FOUND', async () => {
    await assert.rejects(client.validate(`tg1_${'0'.repeat(64)}`, '{}'), { code: status.NOT_FOUND });
  });

  test('validateSchema answers schema findings', async () => {
    const result = await client.validateSchema({ type: 'object', maxProperties: 1 }, {});
    assert.equal(result.valid, false);
    assert.equal(result.handle, '');
    assert.deepEqual(result.errors.map((e) => [e.keyword, e.schema_path]), [['maxProperties', '/maxProperties']]);
  });

  test('bearer token', async () => {
    const address = replicaAddress('AUTH');
    const token = process.env.TOOLGATE_TOKEN;
    assert.ok(token, 'TOOLGATE_TOKEN is not set: run these tests with `make interop`');
    const cases = [['right token', token, undefined], ['wrong token', `${token}x`, status.UNAUTHENTICATED], ['no token', undefined, status.UNAUTHENTICATED]];
    for (const [name, sent, code] of cases) {
      const authed = new Client(address, { insecure: true, token: sent });
      try {
        if (code === undefined) {
          assert.notEqual((await authed.compile(unique(TODO))).handle, '', name);
        } else {
          await assert.rejects(authed.compile(TODO), { code }, name);
        }
      } finally {
        authed.close();
      }
    }
    assert.throws(() => new Client(address, { insecure: true, token: '' }), TypeError);
  });

  test('unknown options are a TypeError, not ignored', async () => {
    await assert.rejects(client.compile(TODO, { format_assertion: true }), /unknown option "format_assertion"/);
    await assert.rejects(client.validate(`tg1_${'0'.repeat(64)}`, {}, { timeout: 5 }), /unknown option "timeout"/);
    await assert.rejects(client.compileToolset({ t: TODO }, { profiles: 'x' }), TypeError);
  });

  test('an aborted signal cancels a call, before it is sent or in flight, and is let go of after', async () => {
    const validator = client.validator();
    const { handle } = await validator.register(unique(TODO));
    const calls = {
      compile: (signal) => client.compile(unique(TODO), { signal }),
      compileToolset: (signal) => client.compileToolset({ todo: unique(TODO) }, { signal }),
      validate: (signal) => client.validate(handle, { action: 'add' }, { signal }),
      validateSchema: (signal) => client.validateSchema(unique(TODO), { action: 'add' }, { signal }),
      'Validator.register': (signal) => validator.register(unique(TODO), { signal }),
      'Validator.validate': (signal) => validator.validate(handle, { action: 'add' }, { signal }),
      'Validator.validateSchema': (signal) => validator.validateSchema(unique(TODO), { action: 'add' }, { signal }),
    };
    for (const [name, call] of Object.entries(calls)) {
      await assert.rejects(call(AbortSignal.abort()), { code: status.CANCELLED }, `${name}: aborted before`);
      const inFlight = new AbortController();
      const pending = call(inFlight.signal);
      inFlight.abort();
      await assert.rejects(pending, { code: status.CANCELLED }, `${name}: aborted in flight`);
      const kept = new AbortController();
      assert.ok(typeof (await call(kept.signal)) === 'object', `${name}: answered with a signal never aborted`);
      assert.equal(getEventListeners(kept.signal, 'abort').length, 0, `${name}: the signal holds no listener after the call`);
    }
    await assert.rejects(client.validate(handle, {}, { signal: 'stop' }), /signal must be an AbortSignal/);
  });

  test('close() ends the calls and streams in flight with CANCELLED', async () => {
    const own = connect('A');
    async function* slow() {
      yield { start: { call_id: 'c', tool_name: 'todo' } };
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // a provider still generating
    }
    const results = own.validateStream(slow(), { tools: { todo: TODO } });
    const done = (async () => {
      for await (const _ of results) {
        // no result comes before close()
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    own.close();
    await assert.rejects(done, { code: status.CANCELLED });
    assert.ok(Date.now() - started < 2_000, 'the stream ended at close(), not when its events did');
  });
});

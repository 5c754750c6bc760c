// Validator.forget() racing the calls in flight, as the Go client's
// Validator orders them. validateSchema answers with the schema it was
// given, though forget() runs while its by-handle call is in flight on a
// replica without the handle ("Forget ran while the call was in flight, so
// Validate had no schema to send again: this call has it"). And forget()
// wins: a call that sends a schema inline while it runs remembers nothing.
// The first test needs replicas A and B, as validator.test.js; the others
// use a fake Client.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client, status, Validator } from '../index.js';
import { replicaAddress, SwitchChannel, unique } from './support.js';

describe('against replicas', () => {
  let switchChannel;
  let client;
  before(() => {
    switchChannel = new SwitchChannel({ A: replicaAddress('A'), B: replicaAddress('B') });
    client = new Client('switch', { insecure: true, clientOptions: { channelOverride: switchChannel } });
  });
  after(() => {
    client.close();
    switchChannel.close();
  });

  test('validateSchema answers with the schema it was given, whatever forget() does meanwhile', async () => {
    const validator = client.validator();
    const schema = unique({ type: 'object', properties: { city: { type: 'string' } } });
    switchChannel.route('A');
    const first = await validator.validateSchema(schema, { city: 'Oslo' }); // remembered on A
    assert.equal(first.valid, true);
    switchChannel.route('B'); // B does not hold the handle
    const pending = validator.validateSchema(schema, { city: 'Oslo' }); // by handle: NOT_FOUND on B
    validator.forget(first.handle); // e.g. another task rotating schemas
    const result = await pending;
    assert.equal(result.valid, true);
    assert.equal(result.handle, first.handle, 'B compiled the schema sent inline');
  });
});

/**
 * A stand-in for a Client: each callValidate waits until the test answers
 * it with reply(answer), a result or an error to reject with.
 */
class FakeClient {
  calls = [];

  callValidate(request) {
    return new Promise((resolve, reject) => {
      this.calls.push({ request, reply: (answer) => (answer instanceof Error ? reject(answer) : resolve(answer)) });
    });
  }

  /** Resolves to the next call once it was made. */
  async next() {
    for (let i = 0; i < 100 && this.calls.length === 0; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(this.calls.length > 0, 'a call was made');
    return this.calls.shift();
  }
}

const HANDLE = `tg1_${'a'.repeat(64)}`;
const notFound = () => Object.assign(new Error('5 NOT_FOUND: handle is not held by this server'), { code: status.NOT_FOUND });
const answer = (handle = HANDLE) => ({ valid: true, handle, code: 'ERROR_CODE_UNSPECIFIED', errors: [] });
const inline = (call) => call.request.inline !== undefined;

describe('with a fake Client', () => {
  test('validateSchema: forget() while its by-handle call is in flight, then NOT_FOUND: the schema goes inline', async () => {
    const fake = new FakeClient();
    const validator = new Validator(fake);
    const first = validator.validateSchema({ type: 'object' }, {});
    (await fake.next()).reply(answer());
    await first;
    const pending = validator.validateSchema({ type: 'object' }, {});
    const byHandle = await fake.next();
    assert.equal(byHandle.request.handle, HANDLE);
    validator.forget(HANDLE);
    byHandle.reply(notFound());
    const retry = await fake.next();
    assert.ok(inline(retry), 'the schema given is sent inline');
    assert.equal(retry.request.inline.schema_json, '{"type":"object"}');
    retry.reply(answer());
    assert.equal((await pending).valid, true);
  });

  test('validateSchema: forget() while its inline call is in flight wins, whichever handle it names', async () => {
    const fake = new FakeClient();
    const validator = new Validator(fake);
    const pending = validator.validateSchema({ type: 'object' }, {});
    const call = await fake.next();
    assert.ok(inline(call));
    validator.forget(`tg1_${'b'.repeat(64)}`);
    call.reply(answer());
    assert.equal((await pending).handle, HANDLE, 'the answer is still returned');
    const again = validator.validateSchema({ type: 'object' }, {});
    const next = await fake.next();
    assert.ok(inline(next), 'nothing was remembered: the schema is sent inline again');
    next.reply(answer());
    await again;
    const third = validator.validateSchema({ type: 'object' }, {});
    const byHandle = await fake.next();
    assert.equal(byHandle.request.handle, HANDLE, 'without a forget() meanwhile, the answer is remembered');
    byHandle.reply(answer());
    await third;
  });

  test('validate: forget() while its inline retry is in flight wins', async () => {
    const fake = new FakeClient();
    const validator = new Validator(fake);
    const first = validator.validateSchema({ type: 'object' }, {});
    (await fake.next()).reply(answer());
    await first;
    const pending = validator.validate(HANDLE, {});
    (await fake.next()).reply(notFound());
    const retry = await fake.next();
    assert.ok(inline(retry));
    validator.forget(HANDLE);
    retry.reply(answer());
    assert.equal((await pending).valid, true, 'the answer is still returned');
    const later = validator.validate(HANDLE, {});
    (await fake.next()).reply(notFound());
    await assert.rejects(later, { code: status.NOT_FOUND }, 'the forgotten handle was not remembered again: no retry');
    assert.equal(fake.calls.length, 0);
  });
});

// Calls and streams on a closed Client fail with a ServiceError-shaped
// ClientClosedError, code CANCELLED (as the Go client's calls after Close
// are), not grpc-js's "Channel has been shut down", which has no code
// (README "Errors": `err.code` is one of `status`). No replica needed.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client, ClientClosedError, status } from '../index.js';

const closedError = (err) =>
  err instanceof ClientClosedError &&
  err.code === status.CANCELLED &&
  err.details === 'the Client is closed' &&
  err.message === '1 CANCELLED: the Client is closed' &&
  typeof err.metadata?.getMap === 'function';

test('a call on a closed Client rejects with CANCELLED', async () => {
  const client = new Client('127.0.0.1:1', { insecure: true });
  const validator = client.validator();
  client.close();
  client.close(); // idempotent
  const calls = {
    compile: () => client.compile({ type: 'object' }),
    compileToolset: () => client.compileToolset({ t: { type: 'object' } }),
    validate: () => client.validate(`tg1_${'0'.repeat(64)}`, {}),
    validateSchema: () => client.validateSchema({ type: 'object' }, {}),
    'Validator.register': () => validator.register({ type: 'object' }),
    'Validator.validate': () => validator.validate(`tg1_${'0'.repeat(64)}`, {}),
    'Validator.validateSchema': () => validator.validateSchema({ type: 'object' }, {}),
  };
  for (const [name, call] of Object.entries(calls)) {
    await assert.rejects(call(), closedError, name);
  }
  await assert.rejects(client.compile({ a: undefined }), TypeError, 'a request that cannot be sent is still a TypeError');
});

test('a stream on a closed Client throws CANCELLED when iterated, created before close() or after', async () => {
  const client = new Client('127.0.0.1:1', { insecure: true });
  const before = client.validateStream([], {});
  client.close();
  const after = client.validateOutputStream([], { type: 'object' });
  for (const [name, results] of Object.entries({ before, after })) {
    await assert.rejects(async () => {
      for await (const _ of results) {
        // none
      }
    }, closedError, name);
  }
});

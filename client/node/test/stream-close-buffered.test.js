// close() and an aborted signal end a stream's iteration at once: results
// grpc-js had already received when the call was cancelled are not
// yielded (README "Streams": "`break` (or `close()`, or aborting `signal`)
// ends it at once"). A runtime that aborts a turn must get no further
// verdict, valid or not, to run tools on. A fake server; no replica needed.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fakeServer } from './support.js';

const EVENTS = [{ start: { call_id: 'c', tool_name: 't' } }, { end: { call_id: 'c' } }];
const RESULTS = 5;

/** The events, then a provider still generating. */
async function* slowEvents() {
  yield* EVENTS;
  await new Promise((resolve) => setTimeout(resolve, 5_000).unref());
}

/** A fake server that answers the events' end with RESULTS results at once, and keeps the stream open. */
const server = () =>
  fakeServer((call) => {
    call.on('error', () => {});
    call.on('data', (request) => {
      if (request.end) {
        for (let i = 0; i < RESULTS; i++) {
          call.write({ result: { call_id: `r${i}`, tool_name: 't', valid: true } });
        }
      }
    });
  });

const closers = {
  'close()': (results) => results.close(),
  'an aborted signal': (_results, abort) => abort.abort(),
};

for (const [how, close] of Object.entries(closers)) {
  test(`no result is yielded after ${how}, not even one already received`, async () => {
    const fake = await server();
    try {
      const abort = new AbortController();
      const results = fake.client.validateStream(slowEvents(), { tools: { t: {} }, signal: abort.signal });
      const seen = [];
      for await (const result of results) {
        seen.push(result.call_id);
        if (seen.length === 1) {
          await new Promise((resolve) => setTimeout(resolve, 200)); // the other results arrive meanwhile
          close(results, abort);
        }
      }
      assert.deepEqual(seen, ['r0'], `results yielded after ${how}`);
    } finally {
      fake.close();
    }
  });

  test(`${how} from outside the loop, while the caller awaits, ends the iteration before the next result`, async () => {
    const fake = await server();
    try {
      const abort = new AbortController();
      const results = fake.client.validateStream(slowEvents(), { tools: { t: {} }, signal: abort.signal });
      const iterator = results[Symbol.asyncIterator]();
      assert.equal((await iterator.next()).value.call_id, 'r0');
      await new Promise((resolve) => setTimeout(resolve, 200)); // r1..r4 are buffered by grpc-js
      close(results, abort);
      assert.deepEqual(await iterator.next(), { done: true, value: undefined });
    } finally {
      fake.close();
    }
  });
}

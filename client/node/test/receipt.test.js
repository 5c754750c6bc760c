// The receipt (StreamEnd) that ends every ValidateStream the server ends
// with OK, against a fake in-process server that sends what a real replica
// never would: no receipt, one that miscounts, a message after it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { status, StreamReceiptError } from '../index.js';
import { collect, fakeServer } from './support.js';

// The receipt request, one bind (the tool, inline) and five events: seven
// requests, two calls.
const TOOLS = { t: { type: 'object' } };
const EVENTS = [
  { start: { call_id: 'c1', tool_name: 't' } },
  { delta: { call_id: 'c1', fragment: '{}' } },
  { end: { call_id: 'c1' } },
  { start: { call_id: 'c2', tool_name: 't' } },
  { end: { call_id: 'c2' } },
];
const SENT = 2 + EVENTS.length;

/** A result for each call the requests end. */
const results = (requests) => requests.filter((r) => r.end).map((r) => ({ result: { call_id: r.end.call_id, tool_name: 't', valid: true } }));

/** The receipt a real server sends for `requests`, with `counts` in place of its own. */
const receipt = (requests, counts = {}) => ({ end: { events: requests.length, results: results(requests).length, ...counts } });

/**
 * Runs one stream of EVENTS bound to TOOLS on a fake server that reads
 * every request and, once the client half-closes, sends what
 * reply(requests) returns and ends the stream with OK. Resolves to the
 * call ids the iteration yielded, what it threw (undefined if nothing) and
 * the requests the server read.
 */
async function run(reply, events = EVENTS, tools = TOOLS) {
  const read = [];
  const server = await fakeServer((call) => {
    call.on('data', (request) => read.push(request));
    call.on('end', () => {
      for (const message of reply(read)) {
        call.write(message);
      }
      call.end();
    });
  });
  const seen = [];
  try {
    for await (const result of server.client.validateStream(events, { tools, deadline: Date.now() + 10_000 })) {
      seen.push(result.call_id);
    }
    return { seen, read };
  } catch (error) {
    return { seen, error, read };
  } finally {
    server.close();
  }
}

/** Asserts that `error` is the StreamReceiptError with `details`, shaped as grpc-js shapes a ServiceError. */
function assertReceiptError(error, details) {
  assert.ok(error instanceof StreamReceiptError && error instanceof Error, `a StreamReceiptError: ${error}`);
  assert.equal(error.code, status.INTERNAL);
  assert.equal(error.details, details);
  assert.equal(error.message, `13 INTERNAL: ${details}`);
  assert.equal(typeof error.metadata?.get, 'function', 'metadata is a grpc-js Metadata');
}

describe("the stream's receipt", () => {
  test('a receipt that counts every request, its request and binds included, and every result: no error, and it is not yielded', async () => {
    const { seen, error, read } = await run((requests) => [...results(requests), receipt(requests)]);
    assert.equal(error, undefined);
    assert.deepEqual(seen, ['c1', 'c2']);
    assert.equal(read.length, SENT);
    assert.deepEqual(read.map((r) => r.event), ['receipt', 'bind', 'start', 'delta', 'end', 'start', 'end']);
  });

  test('an empty stream: a receipt of nothing', async () => {
    const { seen, error, read } = await run((requests) => [receipt(requests)], [], {});
    assert.deepEqual([seen, error, read.map((r) => r.event)], [[], undefined, ['receipt']]);
  });

  test('no receipt fails the stream, after the results', async () => {
    const { seen, error } = await run((requests) => results(requests));
    assert.deepEqual(seen, ['c1', 'c2']);
    assertReceiptError(error, "the stream ended without the server's receipt for the events sent");
  });

  test('no receipt and no results: not a stream without calls', async () => {
    const { seen, error } = await run(() => []);
    assert.deepEqual(seen, []);
    assertReceiptError(error, "the stream ended without the server's receipt for the events sent");
  });

  test('a receipt that miscounts the events fails the stream', async () => {
    const cases = [
      ['one fewer: the bind not counted', SENT - 1, 6],
      ['one more', SENT + 1, 8],
      // An int64 beyond a double's integers is compared, and written, exactly.
      ['beyond a double', '9007199254740999', '9007199254740999'],
    ];
    for (const [name, events, counted] of cases) {
      const { seen, error } = await run((requests) => [...results(requests), receipt(requests, { events })]);
      assert.deepEqual(seen, ['c1', 'c2'], name);
      assertReceiptError(error, `the server's receipt counts ${counted} events and 2 results; the client sent ${SENT} and received 2`);
    }
  });

  test('a receipt that miscounts the results fails the stream', async () => {
    for (const counted of [0, 1, 3]) {
      const { seen, error } = await run((requests) => [...results(requests), receipt(requests, { results: counted })]);
      assert.deepEqual(seen, ['c1', 'c2'], `${counted}`);
      assertReceiptError(error, `the server's receipt counts ${SENT} events and ${counted} results; the client sent ${SENT} and received 2`);
    }
  });

  test('a message after the receipt fails the stream, and is not yielded', async () => {
    const cases = [
      ['a result', (requests) => [results(requests)[0], receipt(requests, { results: 1 }), results(requests)[1]], ['c1']],
      ['a second receipt', (requests) => [...results(requests), receipt(requests), receipt(requests)], ['c1', 'c2']],
    ];
    for (const [name, reply, yielded] of cases) {
      const { seen, error } = await run(reply);
      assert.deepEqual(seen, yielded, name);
      assertReceiptError(error, "the server sent a message after the stream's receipt");
    }
  });

  test('an end with OK before the events ended fails the stream, even after a receipt of what was read', async () => {
    // The events stall after their first, as a silent provider does; the
    // server ends the stream without waiting for the client to half-close it.
    const stalled = () => ({
      pulls: 0,
      returned: false,
      [Symbol.asyncIterator]() {
        return this;
      },
      next() {
        this.pulls++;
        return this.pulls === 1 ? Promise.resolve({ value: EVENTS[0], done: false }) : new Promise(() => {});
      },
      return() {
        this.returned = true;
        return Promise.resolve({ value: undefined, done: true });
      },
    });
    for (const withReceipt of [false, true]) {
      const events = stalled();
      const server = await fakeServer((call) => {
        const read = [];
        call.on('data', (request) => {
          read.push(request);
          if (read.length === 3) { // the receipt request, the bind and the start: every request the client will write
            if (withReceipt) {
              call.write(receipt(read));
            }
            call.end();
          }
        });
      });
      try {
        await assert.rejects(collect(server.client.validateStream(events, { tools: TOOLS, deadline: Date.now() + 10_000 })), (error) => {
          assertReceiptError(error, 'the server ended the stream before the events ended');
          return true;
        }, `with a receipt: ${withReceipt}`);
        assert.equal(events.returned, true, 'the events were returned');
      } finally {
        server.close();
      }
    }
  });
});

// A ResultStream listens to its signal only while it is iterated: one that
// is created but never iterated (the provider request failed first, say)
// leaves no listener on a long-lived signal, which would keep the stream,
// its binds and its events alive (README: "A signal that is never aborted
// keeps no listener once the call is over"). A signal aborted before the
// iteration still ends it at once, without an error and sending nothing.
// A fake server; no replica needed.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';

import { Client } from '../index.js';
import { collect, fakeServer } from './support.js';

test('streams that are never iterated leave no listener on the signal', () => {
  const client = new Client('127.0.0.1:1', { insecure: true });
  const shutdown = new AbortController(); // e.g. the process's shutdown signal
  try {
    for (let i = 0; i < 3; i++) {
      client.validateStream([], { tools: { t: { type: 'object' } }, signal: shutdown.signal });
      client.validateOutputStream([], { type: 'object' }, { signal: shutdown.signal });
    }
    assert.equal(getEventListeners(shutdown.signal, 'abort').length, 0);
  } finally {
    client.close();
  }
});

test('a signal aborted before the iteration ends it at once, sending nothing; one aborted during it too', async () => {
  let calls = 0;
  const fake = await fakeServer((call) => {
    calls++;
    call.on('error', () => {});
  });
  try {
    let pulled = 0;
    function* events() {
      pulled++;
      yield { start: { call_id: 'c', tool_name: 't' } };
    }
    for (const when of ['before validateStream', 'after validateStream']) {
      const abort = new AbortController();
      if (when === 'before validateStream') {
        abort.abort();
      }
      const results = fake.client.validateStream(events(), { tools: { t: {} }, signal: abort.signal });
      abort.abort();
      assert.deepEqual(await collect(results), [], when);
      assert.equal(getEventListeners(abort.signal, 'abort').length, 0, when);
    }
    assert.equal(pulled, 0, 'no event was pulled');

    const during = new AbortController();
    const results = fake.client.validateStream((async function* hung() {
      yield { start: { call_id: 'c', tool_name: 't' } };
      await new Promise((resolve) => setTimeout(resolve, 5_000).unref());
    })(), { tools: { t: {} }, signal: during.signal });
    const done = collect(results);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(getEventListeners(during.signal, 'abort').length, 1, 'listened to while iterated');
    during.abort();
    assert.deepEqual(await done, []);
    assert.equal(getEventListeners(during.signal, 'abort').length, 0, 'let go of after');
    assert.equal(calls, 1, 'only the stream iterated before its abort was opened');
  } finally {
    fake.close();
  }
});

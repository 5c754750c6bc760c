// README: "A delta fragment cut between the two halves of a surrogate pair
// (a JavaScript string sliced at a UTF-16 index) is joined with its call's
// next fragment". Slicing at UTF-16 indices yields empty fragments too
// (slice(i, i)): one between the two halves carries the held surrogate
// over to the next fragment that is not empty.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Requests } from '../lib/stream.js';

const TEXT = '{"s":"\u{1F600}"}';
const BETWEEN = TEXT.indexOf('\u{1F600}') + 1; // between the two halves

/** The fragments Requests sends for `fragments` of call "c", its start and end around them. */
function send(fragments) {
  const requests = new Requests();
  requests.of({ start: { call_id: 'c', tool_name: 't' } });
  const sent = fragments.map((fragment) => requests.of({ delta: { call_id: 'c', fragment } }).delta.fragment);
  requests.of({ end: { call_id: 'c' } });
  requests.end();
  return sent;
}

test('an empty fragment between the halves of a pair keeps the held surrogate', () => {
  const sent = send([TEXT.slice(0, BETWEEN), TEXT.slice(BETWEEN, BETWEEN), TEXT.slice(BETWEEN)]);
  assert.deepEqual(sent, [TEXT.slice(0, BETWEEN - 1), '', TEXT.slice(BETWEEN - 1)]);
  assert.ok(sent.every((fragment) => fragment.isWellFormed?.() ?? true), 'every fragment sent is text');
});

test('several empty fragments, and a chunker at fixed UTF-16 indices, join the pair', () => {
  assert.equal(send([TEXT.slice(0, BETWEEN), '', '', '', TEXT.slice(BETWEEN)]).join(''), TEXT);
  for (const size of [1, 2, 3]) {
    const fragments = [];
    for (let i = 0; i <= TEXT.length; i += size) {
      fragments.push(TEXT.slice(i, i + size), TEXT.slice(i + size, i + size)); // an empty one after each
    }
    assert.equal(send(fragments).join(''), TEXT, `chunks of ${size}`);
  }
});

test('after empty fragments, a held surrogate the next fragment does not complete is still a TypeError', () => {
  const held = /ends with a high surrogate \(U\+D83D\)/;
  assert.throws(() => send([TEXT.slice(0, BETWEEN), '', 'x']), (err) => err instanceof TypeError && /does not start with the low surrogate/.test(err.message) && held.test(err.message));
  assert.throws(() => send([TEXT.slice(0, BETWEEN), '']), (err) => err instanceof TypeError && /the call ends/.test(err.message) && held.test(err.message));
});

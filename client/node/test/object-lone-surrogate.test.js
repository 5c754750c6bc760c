// A lone surrogate in an object's strings or keys (a schema or arguments
// given as an object) is the same TypeError as in text, naming the member
// that holds it, before anything is sent: JSON.stringify would write it as
// the escape \ud800, which the server refuses ("lone surrogate in string
// escape"), so a tool description cut inside an emoji would make its
// schema not compile. No replica needed.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client, jsonText } from '../index.js';
import { compileRequest, toolsetRequest } from '../lib/messages.js';

const lone = (what, unit, at) => (err) =>
  err instanceof TypeError && err.message === `${what} holds a lone surrogate (U+${unit} at UTF-16 index ${at}), which is not text UTF-8 can carry`;

test('a lone surrogate in a schema object is refused as in schema text', () => {
  const schema = { type: 'object', description: 'Weather for a city \ud83c' }; // cut inside a pair
  assert.throws(() => jsonText(JSON.stringify(schema).replace('\\ud83c', '\ud83c'), 'schema'), lone('schema', 'D83C', 51));
  assert.throws(() => jsonText(schema, 'schema'), lone('schema.description', 'D83C', 19));
});

test('strings and keys at any depth, naming the member', () => {
  const cases = [
    [{ a: ['x', { b: 'y\udc00' }] }, lone('arguments.a[1].b', 'DC00', 1)],
    [['\ud800'], lone('arguments[0]', 'D800', 0)],
    [{ 'k\ud800': 1 }, lone('the key "k\\ud800" of arguments', 'D800', 1)],
    [{ a: { '\udfff': 'fine' } }, lone('the key "\\udfff" of arguments.a', 'DFFF', 0)],
  ];
  for (const [value, error] of cases) {
    assert.throws(() => jsonText(value, 'arguments'), error, JSON.stringify(value));
  }
  const pairs = { 'k\u{1F600}': ['\u{1F600}', { s: 'a\u{10FFFF}' }] };
  assert.equal(jsonText(pairs, 'arguments'), JSON.stringify(pairs), 'pairs are text');
});

test('in resources and tools given as objects too', () => {
  assert.throws(() => compileRequest({}, { profile: 'PROFILE_JSON_SCHEMA', resources: { 'https://example.com/s': { title: '\ud800' } } }), /^TypeError: resource "https:\/\/example.com\/s"\.title holds a lone surrogate/);
  assert.throws(() => toolsetRequest({ t: { description: '\ud800' } }), /^TypeError: tool "t"\.description holds a lone surrogate/);
  assert.throws(() => toolsetRequest({ tools: [{ name: 't', inputSchema: { description: '\ud800' } }] }), /^TypeError: tools\.tools\[0\]\.inputSchema\.description holds a lone surrogate/);
});

test('the calls reject with it before anything is sent', async () => {
  const client = new Client('127.0.0.1:1', { insecure: true }); // nothing listens: a sent call would be UNAVAILABLE
  try {
    await assert.rejects(client.compile({ description: '\ud83c' }), /^TypeError: schema\.description holds a lone surrogate/);
    await assert.rejects(client.validateSchema({ type: 'object' }, { a: 'x\ud800' }), /^TypeError: arguments\.a holds a lone surrogate/);
    assert.throws(() => client.validateStream([], { tools: { t: { description: '\ud800' } } }), /^TypeError: .*description holds a lone surrogate/);
  } finally {
    client.close();
  }
});

// The bind messages of a stream, and the compile requests in them: no server needed.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Profile } from '../index.js';
import { bindRequests, MAX_BIND_BYTES } from '../lib/binds.js';
import { compileRequest } from '../lib/messages.js';

const HANDLE = `tg1_${'a'.repeat(64)}`;

/** A schema whose JSON text is about `size` bytes long. */
const schemaOf = (size) => `{"type": "object", "description": "${'x'.repeat(size)}"}`;

describe('compileRequest', () => {
  test('options', () => {
    const resource = '{"type": "string", "maxLength": 12345678901234567890}';
    const request = compileRequest('{"$ref": "https://example.com/s"}', {
      profile: Profile.JSON_SCHEMA,
      resources: { 'https://example.com/s': resource, 'https://example.com/d': { type: 'integer' } },
      formatAssertion: true,
    });
    assert.deepEqual(request, {
      profile: 'PROFILE_JSON_SCHEMA',
      schema_json: '{"$ref": "https://example.com/s"}',
      resources: { 'https://example.com/s': resource, 'https://example.com/d': '{"type":"integer"}' },
      format_assertion: true,
    });
    assert.deepEqual(compileRequest({}), { profile: 'PROFILE_UNSPECIFIED', schema_json: '{}', resources: {}, format_assertion: false },
      'no resources and no format assertion by default');
  });

  test('what cannot be sent is a TypeError', () => {
    const cases = [
      ['resources not a plain object', { resources: ['https://example.com/s'] }],
      ['resources a Map', { resources: new Map([['https://example.com/s', '{}']]) }],
      ['a resource JSON cannot hold', { resources: { 'https://example.com/s': { n: Number.NaN } } }],
      ['a resource of no JSON kind', { resources: { 'https://example.com/s': 5 } }],
      ['a format assertion that is not a boolean', { formatAssertion: 'yes' }],
      ['a format assertion of 1', { formatAssertion: 1 }],
    ];
    for (const [name, options] of cases) {
      assert.throws(() => compileRequest('{}', { profile: Profile.JSON_SCHEMA, ...options }), TypeError, name);
    }
  });
});

describe('bindRequests', () => {
  test('tools inline, and handles', () => {
    const todo = compileRequest('{"type": "object"}');
    assert.deepEqual(bindRequests({ tools: { todo }, handles: { weather: HANDLE } }), [
      { bind: { schemas: { todo } } },
      { bind: { tools: { weather: HANDLE } } },
    ]);
  });

  test('output', () => {
    const output = compileRequest('{"type": "object"}', { profile: Profile.OUTPUT_BINDABLE });
    const tool = compileRequest('{}');
    assert.deepEqual(bindRequests({ output, stripCodeFence: true, tools: { t: tool } }), [
      { bind: { output_schema: output, strip_code_fence: true } },
      { bind: { schemas: { t: tool } } },
    ]);
  });

  test('nothing to bind', () => {
    assert.deepEqual(bindRequests(), []);
    assert.deepEqual(bindRequests({ tools: {}, handles: {} }), []);
  });

  test('refused', () => {
    const tool = compileRequest('{}');
    const cases = [
      ['a name bound both ways', { tools: { t: tool }, handles: { t: HANDLE } }],
      ['a handle that is not a string', { handles: { t: 5 } }],
      ['handles that are not a plain object', { handles: new Map([['t', HANDLE]]) }],
    ];
    for (const [name, options] of cases) {
      assert.throws(() => bindRequests(options), TypeError, name);
    }
  });

  test('property: large toolsets are split', () => {
    // Any tools, of any sizes, are bound each exactly once, in order, in
    // binds that stay within MAX_BIND_BYTES unless one schema alone is
    // larger, and that could not have been fewer (each bind but the last is
    // full: the next schema would not have fitted).
    let seed = 7;
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const sizes = [MAX_BIND_BYTES / 3, MAX_BIND_BYTES / 2, MAX_BIND_BYTES - 200, MAX_BIND_BYTES + 10, 10, 1000].map(Math.floor);
    const resource = { 'https://example.com/ü': '{"type": "string"}' };
    for (let trial = 0; trial < 40; trial++) {
      const tools = {};
      for (let i = 0, n = 1 + random(7); i < n; i++) {
        const resources = random(2) ? resource : {};
        tools[`tool_${trial}_${i}_é`] = compileRequest(schemaOf(sizes[random(sizes.length)]), { profile: Profile.JSON_SCHEMA, resources });
      }
      const cost = (name) => {
        const r = tools[name];
        const texts = [name, r.schema_json, ...Object.entries(r.resources).flat()];
        return texts.reduce((sum, text) => sum + new TextEncoder().encode(text).length, 0);
      };
      const binds = bindRequests({ tools }).map(({ bind }) => Object.keys(bind.schemas));
      assert.deepEqual(binds.flat(), Object.keys(tools), `trial ${trial}: each once, in order`);
      for (const [i, names] of binds.entries()) {
        const size = names.reduce((sum, name) => sum + cost(name), 0);
        assert.ok(names.length > 0, 'no empty bind');
        assert.ok(size <= MAX_BIND_BYTES || names.length === 1, `trial ${trial}: bind ${i} is over the limit`);
        if (i + 1 < binds.length) {
          assert.ok(size + cost(binds[i + 1][0]) > MAX_BIND_BYTES, `trial ${trial}: bind ${i} could have held more`);
        }
      }
    }
  });
});

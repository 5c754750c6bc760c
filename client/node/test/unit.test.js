// Unit tests: no server needed.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { Duplex } from 'node:stream';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Admission, Client, definition, ErrorCode, jsonText, LOADER_OPTIONS, Profile, Provider, ResultStream, status, StreamReceiptError, ValidationServiceClient } from '../index.js';
import { bindRequests } from '../lib/binds.js';
import { checkName } from '../lib/enums.js';
import { compileRequest, toolsetRequest } from '../lib/messages.js';
import { fromMessage } from '../lib/results.js';
import { Requests, toRequest } from '../lib/stream.js';
import { collect, REPO } from './support.js';

const protoType = (name) => definition[`toolgate.v1.${name}`].type;

describe('jsonText', () => {
  test('text is sent unchanged', () => {
    for (const text of ['{"minimum": 123456789012345678901234567890.5}', '{ "type" : "object" }', '{', '']) {
      assert.equal(jsonText(text, 'schema'), text);
    }
  });

  test('bytes are UTF-8', () => {
    assert.equal(jsonText(new TextEncoder().encode('{"a": "ü"}'), 'arguments'), '{"a": "ü"}');
    assert.throws(() => jsonText(Uint8Array.of(0x7b, 0xff, 0x7d), 'arguments'), TypeError);
    // A byte order mark is kept, for the server to refuse as it does from
    // any client: the bytes checked are the bytes the caller hands on.
    assert.equal(jsonText(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d), 'arguments'), '\ufeff{}');
  });

  test('plain objects and arrays are written by JSON.stringify', () => {
    const shared = { x: 1 };
    const cases = [
      ['non-ASCII', { city: 'Zürich' }, '{"city":"Zürich"}'],
      ['nested', { a: [1, [2, null]], b: true }, '{"a":[1,[2,null]],"b":true}'],
      ['a shared sub-object is not a cycle', { a: shared, b: shared }, '{"a":{"x":1},"b":{"x":1}}'],
      ['null prototype', Object.assign(Object.create(null), { a: 1 }), '{"a":1}'],
      ['top-level array', [1, 'a'], '[1,"a"]'],
    ];
    for (const [name, value, want] of cases) {
      assert.equal(jsonText(value, 'schema'), want, name);
    }
  });

  test('what JSON.stringify would drop or rewrite is a TypeError', () => {
    const cyclic = {};
    cyclic.self = cyclic;
    const cases = [
      ['undefined member', { a: undefined }],
      ['function member', { f() {} }],
      ['symbol value', { s: Symbol('s') }],
      ['symbol key', { [Symbol('k')]: 1 }],
      ['BigInt', { n: 10n }],
      ['NaN', { x: Number.NaN }],
      ['infinity', { x: Number.POSITIVE_INFINITY }],
      ['array hole', { a: [1, , 3] }], // eslint-disable-line no-sparse-arrays
      ['Date', { d: new Date(0) }],
      ['Map', { m: new Map([['a', 1]]) }],
      ['class instance', { c: new (class Point { x = 1; })() }],
      ['cycle', cyclic],
      ['a number is not a document', 5],
      ['null is not a document', null],
      ['undefined is not a document', undefined],
    ];
    for (const [name, value] of cases) {
      assert.throws(() => jsonText(value, 'schema'), TypeError, name);
    }
  });

  test('property: random JSON values round-trip', () => {
    let seed = 13;
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const value = (depth) => {
      switch (random(depth < 4 ? 7 : 4)) {
        case 0: return random(2 ** 30) * (random(2) ? -1 : 1) * 2 ** random(40);
        case 1: return random(1e6) / (random(1000) + 1);
        case 2: return String.fromCodePoint(...Array.from({ length: random(6) }, () => random(2) ? 32 + random(95) : 0xa0 + random(0xd000)));
        case 3: return [true, false, null][random(3)];
        case 4:
        case 5: return Object.fromEntries(Array.from({ length: random(4) }, () => [`k${random(100)}`, value(depth + 1)]));
        default: return Array.from({ length: random(4) }, () => value(depth + 1));
      }
    };
    for (let i = 0; i < 500; i++) {
      const doc = { root: value(0) };
      assert.deepEqual(JSON.parse(jsonText(doc, 'arguments')), doc);
    }
  });
});

describe('enums', () => {
  test('each enum lists exactly the proto names, in order', () => {
    for (const [kind, name, prefix] of [[Profile, 'Profile', 'PROFILE_'], [Admission, 'Admission', 'ADMISSION_'], [ErrorCode, 'ErrorCode', 'ERROR_CODE_'], [Provider, 'Provider', 'PROVIDER_']]) {
      const names = protoType(name).value.map((v) => v.name);
      assert.deepEqual(Object.values(kind), names, name);
      assert.deepEqual(Object.keys(kind).map((k) => prefix + k), names, `${name}: keys drop the prefix`);
      assert.ok(Object.isFrozen(kind));
    }
  });

  test('a name that is not in the enum is a TypeError, never 0', () => {
    assert.equal(checkName(Provider, 'provider', 'PROVIDER_ANTHROPIC'), 'PROVIDER_ANTHROPIC');
    for (const value of ['PROVIDER_OPENAI', 'provider_anthropic', 'ANTHROPIC', 3, 0, null, undefined, 'ERROR_CODE_VALIDATION']) {
      assert.throws(() => checkName(Provider, 'provider', value), /provider must be one of PROVIDER_UNSPECIFIED, .*PROVIDER_ANTHROPIC/, String(value));
    }
    assert.throws(() => compileRequest('{}', { profile: 'PROFILE_STRICT' }), TypeError);
  });
});

describe('toolset requests', () => {
  // What the server receives: the request through the method's own
  // serializer, so that a field name the proto lacks (dropped silently)
  // fails here.
  const method = ValidationServiceClient.service.CompileToolset;
  const sent = (tools, options) => method.requestDeserialize(method.requestSerialize(toolsetRequest(tools, options)));
  const TOOL = { type: 'object', properties: { city: { type: 'string' } } };
  const LIST = { tools: [{ name: 'weather', description: 'Weather', inputSchema: TOOL }] };

  test('a tools/list document is tools_list_json: text unchanged, objects written as JSON', () => {
    const text = '{"tools": [{"name": "n", "inputSchema": {"type": "integer", "minimum": 9007199254740993}}]}';
    const response = { jsonrpc: '2.0', id: 1, result: LIST };
    const cases = [
      ['text', text, text],
      ['bytes', new TextEncoder().encode(text), text],
      ['a tools/list result', LIST, JSON.stringify(LIST)],
      ['a JSON-RPC response', response, JSON.stringify(response)],
      ['a JSON-RPC response without jsonrpc', { id: 1, result: LIST }, JSON.stringify({ id: 1, result: LIST })],
      // a response of any shape, for the server to judge
      ['a JSON-RPC error response', { jsonrpc: '2.0', id: 1, error: { code: -32601 } }, '{"jsonrpc":"2.0","id":1,"error":{"code":-32601}}'],
      ['a tools/list result with more members', { ...LIST, nextCursor: 'c2' }, JSON.stringify({ ...LIST, nextCursor: 'c2' })],
    ];
    for (const [name, tools, want] of cases) {
      const request = sent(tools);
      assert.equal(request.source, 'tools_list_json', name);
      assert.equal(request.tools_list_json, want, name);
    }
  });

  test('a Map or other plain object is a ToolList of name and schema, in order', () => {
    const b = { name: 'b', schema_json: '{"type": "object"}' };
    const a = { name: 'a', schema_json: JSON.stringify(TOOL) };
    const cases = [
      // a Map may name a tool "tools" ("" is a tool without a schema, for the server to report)
      ['Map', new Map([['b', '{"type": "object"}'], ['a', TOOL], ['tools', '']]), [b, a, { name: 'tools', schema_json: '' }]],
      ['plain object', { b: '{"type": "object"}', a: TOOL }, [b, a]],
      ['empty', {}, []],
      // a document by the shape of its members: tools named "tools" and "result" with schemas are tools
      ['tools named like document members', { tools: TOOL, result: { type: 'object', properties: { tools: { type: 'array' } } } },
        [{ name: 'tools', schema_json: JSON.stringify(TOOL) }, { name: 'result', schema_json: '{"type":"object","properties":{"tools":{"type":"array"}}}' }]],
    ];
    for (const [name, tools, want] of cases) {
      const request = sent(tools);
      assert.equal(request.source, 'tools', name);
      assert.deepEqual(request.tools.tools, want, name);
    }
  });

  test('options: those of compile, and admission', () => {
    const defaults = sent(LIST);
    assert.deepEqual([defaults.profile, defaults.admission, defaults.resources, defaults.format_assertion], [Profile.UNSPECIFIED, Admission.UNSPECIFIED, {}, false]);
    const request = sent(LIST, { profile: Profile.JSON_SCHEMA, admission: Admission.STRICT, resources: { 'https://example.com/s': { type: 'string' } }, formatAssertion: true });
    assert.deepEqual([request.profile, request.admission, request.resources, request.format_assertion], [Profile.JSON_SCHEMA, Admission.STRICT, { 'https://example.com/s': '{"type":"string"}' }, true]);
  });

  test('what cannot be sent as meant is a TypeError', () => {
    const cases = [
      ['an array', [LIST.tools[0]]],
      ['a number', 5],
      ['null', null],
      ['undefined', undefined],
      ['a class instance', new (class Tools { tools = []; })()],
      ['a Map key that is no string', new Map([[1, TOOL]])],
      ['a schema that is no document', { a: 5 }],
      ['a schema JSON cannot hold', new Map([['a', { type: 'object', default: Number.NaN }]])],
      ['a document JSON cannot hold', { tools: [{ name: 'a', inputSchema: { minimum: 10n } }] }],
    ];
    for (const [name, tools] of cases) {
      assert.throws(() => toolsetRequest(tools), TypeError, name);
    }
    for (const [name, options] of [['admission by number', { admission: 2 }], ['admission without prefix', { admission: 'STRICT' }], ['profile', { profile: 'json_schema' }], ['resources', { resources: new Map() }], ['formatAssertion', { formatAssertion: 1 }]]) {
      assert.throws(() => toolsetRequest(LIST, options), TypeError, name);
    }
  });
});

describe('results', () => {
  test('fields keep their proto names; int64 become numbers; enums names', () => {
    const result = fromMessage('CallResult', {
      call_id: 'c1', tool_name: 'todo', valid: false, code: 'ERROR_CODE_VALIDATION',
      errors: [{ code: 'ERROR_CODE_VALIDATION', keyword: 'enum', schema_path: '/properties/s/enum', instance_path: '/s', message: 'm', offset: '1099511627776' }],
      early: true, bytes: '34', errors_truncated: false,
    });
    assert.deepEqual(result, {
      call_id: 'c1', tool_name: 'todo', valid: false, code: 'ERROR_CODE_VALIDATION',
      errors: [{ code: 'ERROR_CODE_VALIDATION', keyword: 'enum', schema_path: '/properties/s/enum', instance_path: '/s', message: 'm', offset: 2 ** 40 }],
      early: true, bytes: 34, errors_truncated: false,
    });
    assert.ok(Object.isFrozen(result) && Object.isFrozen(result.errors) && Object.isFrozen(result.errors[0]));
  });

  test('a toolset: tool results with the proto fields, bind a frozen plain object', () => {
    const finding = { code: 'ERROR_CODE_UNSUPPORTED_CAPABILITY', keyword: 'format', schema_path: '/properties/url/format', instance_path: '', message: 'm', offset: '0' };
    const good = { name: 'weather', handle: 'tg1_a', code: 'ERROR_CODE_UNSPECIFIED', errors: [], warnings: [], errors_truncated: false, warnings_truncated: false };
    const bad = { name: 'fetch', handle: '', code: 'ERROR_CODE_UNSUPPORTED_CAPABILITY', errors: [finding], warnings: [finding], errors_truncated: true, warnings_truncated: true };
    const result = fromMessage('CompileToolsetResponse', { tools: [good, bad], bind: { weather: 'tg1_a', constructor: 'tg1_b' }, admitted: true, more_pages: true });
    assert.deepEqual(result, {
      tools: [good, { ...bad, errors: [{ ...finding, offset: 0 }], warnings: [{ ...finding, offset: 0 }] }],
      bind: { weather: 'tg1_a', constructor: 'tg1_b' },
      admitted: true,
      more_pages: true,
    });
    assert.deepEqual(Object.keys(result.tools[0]), protoType('ToolResult').field.map((f) => f.name), 'a ToolResult has exactly the proto fields');
    assert.equal(Object.getPrototypeOf(result.bind), Object.prototype);
    assert.ok(Object.isFrozen(result.bind) && Object.isFrozen(result.tools) && Object.isFrozen(result.tools[1].warnings[0]));
    assert.deepEqual(fromMessage('CompileToolsetResponse', { tools: [], bind: {}, admitted: false, more_pages: false }), { tools: [], bind: {}, admitted: false, more_pages: false });
  });

  test('a code this client does not know arrives as its number, as a string', () => {
    const result = fromMessage('ValidateResponse', { valid: false, code: 7, errors: [], handle: '', errors_truncated: false });
    assert.equal(result.code, '7');
  });

  test('an int64 beyond what a number holds exactly is a RangeError', () => {
    assert.throws(() => fromMessage('Error', { code: 'ERROR_CODE_VALIDATION', keyword: '', schema_path: '', instance_path: '', message: '', offset: '9007199254740993' }), RangeError);
  });
});

describe('stream events', () => {
  test('explicit events and raw provider events', () => {
    const cases = [
      [{ start: { call_id: 'c', tool_name: 't' } }, { start: { call_id: 'c', tool_name: 't' } }],
      [{ delta: { call_id: 'c', fragment: '{"a' } }, { delta: { call_id: 'c', fragment: '{"a' } }],
      [{ end: { call_id: 'c' } }, { end: { call_id: 'c' } }],
      [{ answer: { call_id: 'a' } }, { start: { call_id: 'a', output: true } }],
      ['{"type":"ping"}', { provider_event: { provider: 'PROVIDER_ANTHROPIC', event_json: '{"type":"ping"}' } }],
      [new TextEncoder().encode('{}'), { provider_event: { provider: 'PROVIDER_ANTHROPIC', event_json: '{}' } }],
      [{ named: { name: 'ping', data: '{"type":"ping"}' } },
        { provider_event: { provider: 'PROVIDER_ANTHROPIC', event_json: '{"type":"ping"}', event_name: 'ping' } }],
    ];
    for (const [event, want] of cases) {
      assert.deepEqual(toRequest(event, 'PROVIDER_ANTHROPIC'), want);
    }
  });

  test('anything else is a TypeError', () => {
    const cases = [
      ['camelCase field', { delta: { callId: 'c', fragment: 'x' } }],
      ['missing field', { start: { call_id: 'c' } }],
      ['extra field', { end: { call_id: 'c', tool_name: 't' } }],
      ['an answer names no tool', { answer: { call_id: 'c', tool_name: 't' } }],
      ['number field', { end: { call_id: 1 } }],
      ['two kinds', { start: { call_id: 'c', tool_name: 't' }, end: { call_id: 'c' } }],
      ['unknown kind', { stop: { call_id: 'c' } }],
      ['a named event without data', { named: { name: 'ping' } }],
      ['an inherited name is no kind', { toString: { call_id: 'c' } }],
      ['a number', 42],
      ['null', null],
    ];
    for (const [name, event] of cases) {
      assert.throws(() => toRequest(event, 'PROVIDER_ANTHROPIC'), TypeError, name);
    }
    assert.throws(() => toRequest('{}', undefined), /needs the provider option/);
    assert.throws(() => toRequest({ named: { name: 'ping', data: '{}' } }, undefined), /needs the provider option/);
  });
});

describe('lone surrogates', () => {
  // protobufjs would encode a lone surrogate as bytes that are not UTF-8,
  // which the server refuses, failing the whole call or stream.
  const LONE = /lone surrogate/;

  test('in JSON text and in objects, a TypeError naming what held it', (t) => {
    assert.throws(() => jsonText('{"a": "\ud800"}', 'arguments'), /^TypeError: arguments holds a lone surrogate \(U\+D800 at UTF-16 index 7\)/);
    assert.throws(() => jsonText('{"a": "\udc00\ud83d"}', 'schema'), /schema holds a lone surrogate \(U\+DC00 at UTF-16 index 7\)/);
    assert.equal(jsonText('{"a": "\u{1F600}"}', 'arguments'), '{"a": "\u{1F600}"}', 'a pair is one character');
    // JSON.stringify would write the escape \ud800, which the server refuses: a TypeError here too.
    assert.throws(() => jsonText({ a: ['\udc00'] }, 'arguments'), /^TypeError: arguments\.a\[0\] holds a lone surrogate \(U\+DC00 at UTF-16 index 0\)/);
    assert.throws(() => jsonText({ '\ud800': [] }, 'arguments'), /^TypeError: the key "\\ud800" of arguments holds a lone surrogate/);
    // Node 18 has no String.prototype.isWellFormed: the same answers without it.
    const { isWellFormed } = String.prototype;
    delete String.prototype.isWellFormed;
    t.after(() => Object.defineProperty(String.prototype, 'isWellFormed', { value: isWellFormed, writable: true, configurable: true }));
    assert.throws(() => jsonText('{"a": "\ud800"}', 'arguments'), /U\+D800 at UTF-16 index 7/);
    assert.equal(jsonText('{"a": "\u{1F600}"}', 'arguments'), '{"a": "\u{1F600}"}');
    assert.throws(() => jsonText({ a: '\ud800' }, 'arguments'), /arguments\.a holds a lone surrogate \(U\+D800 at UTF-16 index 0\)/);
  });

  test('in names and stream events, a TypeError', () => {
    const cases = [
      ['a resource URI', () => compileRequest('{}', { resources: { 'https://example.com/\ud800': '{}' } }), /a resource URI/],
      ['a resource', () => compileRequest('{}', { resources: { 'https://example.com/s': '"\ud800"' } }), /resource "https:\/\/example.com\/s"/],
      ['a toolset tool name', () => toolsetRequest(new Map([['t\ud800', {}]])), /a tool name/],
      ['a toolset schema', () => toolsetRequest({ t: '{"description": "\udfff"}' }), /tool "t"/],
      ['a tools/list text', () => toolsetRequest('{"tools": [{"name": "\ud800"}]}'), /^tools holds/],
      ['a bound tool name', () => bindRequests({ tools: { 't\ud800': compileRequest('{}') } }), /a tool name/],
      ['a tool bound by handle', () => bindRequests({ handles: { 't\ud800': 'tg1_x' } }), /a tool name/],
      ['a raw provider event', () => toRequest('{"type": "\ud800"}', 'PROVIDER_ANTHROPIC'), /a raw provider event/],
      ["a named event's name", () => toRequest({ named: { name: '\ud800', data: '{}' } }, 'PROVIDER_ANTHROPIC'), /a named event's name/],
      ["a named event's data", () => toRequest({ named: { name: 'ping', data: '\ud800' } }, 'PROVIDER_ANTHROPIC'), /a raw provider event/],
      ["a start's call id", () => toRequest({ start: { call_id: '\ud800', tool_name: 't' } }), /a start event's call_id/],
      ["a start's tool name", () => toRequest({ start: { call_id: 'c', tool_name: '\udbff' } }), /a start event's tool_name/],
      ["an end's call id", () => toRequest({ end: { call_id: '\udc00' } }), /end event's call_id/],
    ];
    for (const [name, make, error] of cases) {
      assert.throws(make, (err) => err instanceof TypeError && LONE.test(err.message) && error.test(err.message), name);
    }
  });

  test('a pair split between two fragments of one call is joined', () => {
    const text = '{"a": "\u{1F600}\u{1F600}"}';
    const cut = [7, 9]; // each in the middle of a pair
    const events = [
      { delta: { call_id: 'c', fragment: text.slice(0, cut[0]) } },
      { delta: { call_id: 'other', fragment: '\ud83d' } }, // another call's held surrogate is its own
      { delta: { call_id: 'c', fragment: text.slice(cut[0], cut[1]) } },
      { delta: { call_id: 'other', fragment: '\ude00' } },
      { delta: { call_id: 'c', fragment: text.slice(cut[1]) } },
      { end: { call_id: 'c' } },
    ];
    const requests = new Requests();
    const sent = events.map((event) => requests.of(event));
    requests.end();
    assert.deepEqual(sent.map((r) => r.delta?.fragment), ['{"a": "', '', '\u{1F600}', '\u{1F600}', '\u{1F600}"}', undefined]);
    assert.equal(sent.filter((r) => r.delta?.call_id === 'c').map((r) => r.delta.fragment).join(''), text);
  });

  test('a lone surrogate in fragments is a TypeError', () => {
    const start = (fragment) => [{ delta: { call_id: 'c', fragment } }];
    const cases = [
      ['inside a fragment', [...start('"a\ud800b"')], /a delta fragment of call "c" holds a lone surrogate \(U\+D800 at UTF-16 index 2\)/],
      ['a low surrogate with none held', [...start('\udc00')], /holds a lone surrogate \(U\+DC00/],
      ['two high surrogates', [...start('\ud800\ud800')], /holds a lone surrogate \(U\+D800 at UTF-16 index 0\)/],
      ['a next fragment without the low surrogate', [...start('"\ud83d'), { delta: { call_id: 'c', fragment: 'x' } }],
        /call "c" ends with a high surrogate \(U\+D83D\), and its next fragment does not start with the low surrogate/],
      ["the call's end", [...start('"\ud83d'), { end: { call_id: 'c' } }], /U\+D83D\), and the call ends/],
    ];
    for (const [name, events, error] of cases) {
      const requests = new Requests();
      assert.throws(() => events.forEach((event) => requests.of(event)), (err) => err instanceof TypeError && error.test(err.message), name);
    }
    const requests = new Requests();
    requests.of({ delta: { call_id: 'c', fragment: '"\ud83d' } });
    assert.throws(() => requests.end(), /call "c" ends with a high surrogate \(U\+D83D\), and the events end/);
  });
});

/**
 * A stand-in for the grpc-js call of a ValidateStream: it records the
 * requests written, receipt() sends the receipt a server ends with (the
 * requests written so far, and `results`), and finish() ends it as grpc-js
 * reports a status (the messages end, then an error for any code but OK,
 * then the status).
 */
class FakeCall extends Duplex {
  written = [];

  constructor() {
    super({ objectMode: true });
  }

  _read() {}

  _write(request, _encoding, callback) {
    this.written.push(request);
    callback();
  }

  cancel() {
    this.finish(status.CANCELLED);
  }

  receipt(results = 0) {
    this.push({ end: { events: String(this.written.length), results: String(results) }, event: 'end' });
  }

  finish(code) {
    if (this.code === undefined) {
      this.code = code;
      this.push(null);
      if (code !== status.OK) {
        this.emit('error', Object.assign(new Error(`status ${code}`), { code }));
      }
      this.emit('status', { code });
    }
  }
}

/** A ResultStream of `events` over `call`, as Client.validateStream makes one. */
const fakeStream = (call, events) => new ResultStream({ stub: { ValidateStream: () => call }, metadata: () => undefined, track: () => () => {}, checkOpen: () => {} }, events);

/** Resolves after `n` turns of the event loop. */
async function turns(n) {
  for (let i = 0; i < n; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('stream pump', () => {
  test("the stream's end returns the events at once, even during a pull", async () => {
    const ends = [
      ["the server's status", (call) => call.finish(status.INVALID_ARGUMENT), { code: status.INVALID_ARGUMENT }],
      ['close()', (_call, results) => results.close(), undefined],
    ];
    for (const [name, end, error] of ends) {
      const call = new FakeCall();
      let pulls = 0;
      let returned = false;
      const events = {
        [Symbol.asyncIterator]() {
          return this;
        },
        next() {
          pulls++; // the second is a read from a provider that never answers
          return pulls === 1 ? Promise.resolve({ value: { end: { call_id: 'c' } }, done: false }) : new Promise(() => {});
        },
        return() {
          returned = true;
          return Promise.resolve({ done: true, value: undefined });
        },
      };
      const results = fakeStream(call, events);
      const first = results[Symbol.asyncIterator]().next();
      await turns(2);
      assert.equal(pulls, 2, name);
      end(call, results);
      if (error === undefined) {
        assert.deepEqual(await first, { done: true, value: undefined }, name);
      } else {
        await assert.rejects(first, error, name);
      }
      assert.equal(returned, true, `${name}: return() is called while the pull is in progress`);
      assert.deepEqual(call.written, [{ receipt: {} }, { end: { call_id: 'c' } }], name);
    }
  });

  test("the server's end stops the pulls while the caller is busy with a result", async () => {
    const call = new FakeCall();
    let pulls = 0;
    let finished = false;
    async function* provider() {
      try {
        for (let i = 0; i < 100; i++) {
          pulls++;
          yield { delta: { call_id: 'c', fragment: 'x' } };
          await turns(1);
        }
      } finally {
        finished = true;
      }
    }
    const iterator = fakeStream(call, provider())[Symbol.asyncIterator]();
    const first = iterator.next();
    call.push({ result: { call_id: 'c', errors: [], bytes: '1' } });
    assert.equal((await first).value.call_id, 'c');
    // Busy with that result, the caller pulls no further while the server ends the stream.
    call.finish(status.INVALID_ARGUMENT);
    const [pulled, written] = [pulls, call.written.length];
    await turns(10);
    assert.equal(finished, true, "the provider's finally ran");
    assert.ok(pulls <= pulled + 1, `at most the pull in progress settled: ${pulls - pulled} more`);
    assert.equal(call.written.length, written, 'nothing was written after the end');
    await assert.rejects(iterator.next(), { code: status.INVALID_ARGUMENT });
  });
});

describe('stream receipt', () => {
  // The receipt's int64 counts, as each proto-loader `longs` option gives
  // them: a decimal string (this client's), a number, or a Long; unset
  // when the loader's defaults are off.
  const long = (high, low, unsigned = false) => ({ high, low, unsigned });
  /** What iterating a stream of one end event throws when the server ends it with OK after `receipt`. */
  async function failure(receipt) {
    const call = new FakeCall();
    const done = collect(fakeStream(call, [{ end: { call_id: 'c' } }]));
    await turns(3);
    assert.equal(call.written.length, 2); // the receipt request, the end
    call.push({ result: { call_id: 'c', errors: [], bytes: '0' } });
    call.push({ end: receipt });
    call.finish(status.OK);
    try {
      assert.deepEqual((await done).map((r) => r.call_id), ['c']);
      return undefined;
    } catch (err) {
      return err;
    }
  }

  test('counts as strings, numbers and Longs', async () => {
    const cases = [
      ['strings', { events: '2', results: '1' }],
      ['numbers', { events: 2, results: 1 }],
      ['Longs', { events: long(0, 2), results: long(0, 1, true) }],
    ];
    for (const [name, receipt] of cases) {
      assert.equal(await failure(receipt), undefined, name);
    }
  });

  test('counts that differ, whatever their form, fail the stream exactly', async () => {
    const cases = [
      ['unset: zero', {}, '0 events and 0 results'],
      ['zero', { events: 0, results: '0' }, '0 events and 0 results'],
      ['a Long of the high word', { events: long(1, 1), results: 1 }, '4294967297 events and 1 results'],
      ['a negative Long', { events: long(-1, -1), results: 1 }, '-1 events and 1 results'],
      ['an unsigned Long', { events: long(-1, -1, true), results: 1 }, '18446744073709551615 events and 1 results'],
      ['a fraction', { events: 1.5, results: 1 }, '"1.5" events and 1 results'],
      ['not a number', { events: 'one', results: 1 }, '"one" events and 1 results'],
    ];
    for (const [name, receipt, counts] of cases) {
      const err = await failure(receipt);
      assert.ok(err instanceof StreamReceiptError, `${name}: ${err}`);
      assert.equal(err.code, status.INTERNAL, name);
      assert.equal(err.details, `the server's receipt counts ${counts}; the client sent 2 and received 1`, name);
    }
  });
});

describe('validateOutputStream binds', () => {
  /** A Client whose ValidateStream is `call`; `opened` counts the streams it opened. */
  function fakeClient(call) {
    const client = new Client('localhost:1', { insecure: true }); // connects lazily: never here
    const counts = { opened: 0 };
    client.stub.close();
    client.stub = { ValidateStream: () => (counts.opened++, call), close() {} };
    return { client, counts };
  }
  const handle = `tg1_${'0'.repeat(64)}`;

  test('the output schema first, then the tools inline, then by handle', async () => {
    const call = new FakeCall();
    const { client } = fakeClient(call);
    const resources = { 'https://example.com/r': { type: 'string' } };
    const results = client.validateOutputStream([], { $ref: 'https://example.com/r' }, {
      stripCodeFence: true, tools: { t: '{"type": "object"}' }, handles: { h: handle }, toolProfile: Profile.JSON_SCHEMA, resources, formatAssertion: true,
    });
    const done = collect(results);
    await turns(3);
    call.receipt();
    call.finish(status.OK);
    assert.deepEqual(await done, []);
    // The profile defaults to the output's for the answer, toolProfile is the
    // tools'; resources and the format assertion go with both.
    const compiled = (profile, schema_json) => ({ profile, resources: { 'https://example.com/r': '{"type":"string"}' }, format_assertion: true, schema_json });
    assert.deepEqual(call.written, [
      { receipt: {} },
      { bind: { output_schema: compiled('PROFILE_OUTPUT_BINDABLE', '{"$ref":"https://example.com/r"}'), strip_code_fence: true } },
      { bind: { schemas: { t: compiled('PROFILE_JSON_SCHEMA', '{"type": "object"}') } } },
      { bind: { tools: { h: handle } } },
    ]);
  });

  test('without toolProfile the tools compile under the default, whatever the output profile', async () => {
    const call = new FakeCall();
    const { client } = fakeClient(call);
    const done = collect(client.validateOutputStream([], {}, { tools: { t: {} }, profile: Profile.JSON_SCHEMA }));
    await turns(3);
    call.receipt();
    call.finish(status.OK);
    await done;
    assert.deepEqual(call.written.slice(1).map(({ bind }) => (bind.output_schema ?? bind.schemas.t).profile), ['PROFILE_JSON_SCHEMA', 'PROFILE_UNSPECIFIED']);
  });

  test('bad options are a TypeError before anything is sent', () => {
    const cases = [
      ['a tool bound both ways', { tools: { t: {} }, handles: { t: handle } }, /tools and handles both name "t"/],
      ['tools that are not a plain object', { tools: new Map([['t', {}]]) }, /tools must be a plain object/],
      ['a tool schema JSON cannot hold', { tools: { t: { n: Number.NaN } } }, TypeError],
      ['a handle that is not a string', { handles: { t: 1 } }, /handles must be/],
      ['an unknown tool profile', { tools: { t: {} }, toolProfile: 'PROFILE_STRICT' }, /profile/],
      ['an unknown tool profile without tools', { toolProfile: 3 }, /profile/],
      ['a misspelt option', { tools: { t: {} }, tool_profile: Profile.JSON_SCHEMA }, /unknown option "tool_profile"/],
    ];
    for (const [name, options, error] of cases) {
      const { client, counts } = fakeClient(new FakeCall());
      let pulled = false;
      const events = (function* () {
        pulled = true;
      })();
      assert.throws(() => client.validateOutputStream(events, {}, options), (err) => err instanceof TypeError && (error === TypeError || error.test(err.message)), name);
      assert.deepEqual([counts.opened, pulled], [0, false], `${name}: nothing sent`);
    }
  });
});

describe('unknown options', () => {
  test("the TypeError names every option of the method, as its documentation lists them", async () => {
    const client = new Client('127.0.0.1:1', { insecure: true }); // never reached: the options fail first
    const validator = client.validator();
    const compiling = 'profile, resources, formatAssertion';
    const stream = 'tools, handles, provider, deadline, signal';
    const cases = [
      ['compile', () => client.compile({}, { bogus: 1 }), `${compiling}, deadline, signal`],
      ['compileToolset', () => client.compileToolset({ t: {} }, { bogus: 1 }), `${compiling}, admission, deadline, signal`],
      ['validate', () => client.validate(`tg1_${'0'.repeat(64)}`, {}, { bogus: 1 }), 'deadline, signal'],
      ['validateSchema', () => client.validateSchema({}, {}, { bogus: 1 }), `${compiling}, deadline, signal`],
      ['validateStream', () => client.validateStream([], { bogus: 1 }), `${compiling}, ${stream}`],
      ['validateOutputStream', () => client.validateOutputStream([], {}, { bogus: 1 }), `${compiling}, stripCodeFence, toolProfile, ${stream}`],
      ['Validator.register', () => validator.register({}, { bogus: 1 }), `${compiling}, deadline, signal`],
      ['Validator.validate', () => validator.validate(`tg1_${'0'.repeat(64)}`, {}, { bogus: 1 }), 'deadline, signal'],
      ['Validator.validateSchema', () => validator.validateSchema({}, {}, { bogus: 1 }), `${compiling}, deadline, signal`],
    ];
    try {
      for (const [method, call, known] of cases) {
        let thrown;
        try {
          await call();
        } catch (err) {
          thrown = err;
        }
        assert.ok(thrown instanceof TypeError, `${method}: ${thrown}`);
        assert.equal(thrown.message, `unknown option "bogus"; the options are ${known}`, method);
      }
    } finally {
      client.close();
    }
  });
});

describe('the loaded API', () => {
  test('the loader options every client needs', () => {
    assert.deepEqual({ ...LOADER_OPTIONS }, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  });

  test('the proto copy is the repository proto', () => {
    const tree = (dir) => Object.fromEntries(
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const path = join(entry.parentPath ?? entry.path, entry.name);
          return [relative(dir, path), readFileSync(path, 'utf8')];
        }),
    );
    const want = tree(`${REPO}proto`);
    assert.ok(Object.keys(want).length > 0);
    assert.deepEqual(tree(fileURLToPath(new URL('../proto', import.meta.url))), want, 'client/node/proto is stale: run `make generate`');
  });
});

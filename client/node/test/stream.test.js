// Streams against a real replica: recorded provider events and explicit deltas.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, test } from 'node:test';

import { ErrorCode, Profile, Provider, status } from '../index.js';
import { chatAnswerAndCalls, collect, connect, countryIn, offsetOf, recording, STOCK, watched, WEATHER } from './support.js';

const TODO = {
  type: 'object',
  required: ['action'],
  additionalProperties: false,
  properties: { action: { type: 'string', enum: ['add', 'update'] }, id: { type: 'string' }, status: { type: 'string', enum: ['pending', 'completed'] } },
};

// The recording: GetWeatherArgs, then get_stock_price (see testdata/PROVENANCE.md).
const { events: EVENTS, expected: CALLS } = recording('openai-chat/parallel-weather-and-stock');
// In it, the event whose fragment starts the country code "GB".
const COUNTRY_EVENT = EVENTS.findIndex((e) => e.includes('"arguments":"GB'));

/**
 * A provider still generating: yields the recording's events up to and
 * including `stopAfter`, then waits, as a read from a live response does,
 * until release(), which fails that read as aborting the request would.
 */
class GatedProvider {
  yielded = 0;
  finished = false;
  #release;
  #released = new Promise((resolve) => {
    this.#release = resolve;
  });

  constructor(events, stopAfter) {
    this.events = events;
    this.stopAfter = stopAfter;
  }

  release() {
    this.#release();
  }

  async *[Symbol.asyncIterator]() {
    try {
      for (const [i, event] of this.events.entries()) {
        if (i > this.stopAfter) {
          await this.#released;
          throw new DOMException('The operation was aborted.', 'AbortError');
        }
        this.yielded++;
        yield event;
      }
    } finally {
      this.finished = true;
    }
  }
}

describe('validateStream', () => {
  let client;
  before(() => {
    client = connect('A');
  });
  after(() => client.close());

  const stream = (events, weather = WEATHER) =>
    client.validateStream(events, { tools: { GetWeatherArgs: weather, get_stock_price: STOCK }, provider: Provider.OPENAI_CHAT, deadline: Date.now() + 30_000 });

  test('a recorded stream', async () => {
    const got = await collect(stream(EVENTS));
    assert.deepEqual(got.map((r) => [r.call_id, r.tool_name, r.valid, r.early]), CALLS.map((c) => [c.id, c.name, true, false]));
    assert.deepEqual(got.map((r) => r.bytes), CALLS.map((c) => Buffer.byteLength(c.arguments)));
  });

  test('an early rejection', async () => {
    const weather = CALLS[0].arguments;
    const [first, second] = await collect(stream(EVENTS, countryIn('FR', 'DE')));
    assert.deepEqual([first.call_id, first.valid, first.early, first.code], [CALLS[0].id, false, true, ErrorCode.VALIDATION]);
    assert.deepEqual(first.errors.map((e) => [e.keyword, e.schema_path, e.instance_path, e.offset]), [
      ['enum', '/properties/country/enum', '/country', offsetOf(weather, '"GB"', 1)],
    ]);
    assert.ok(first.bytes < Buffer.byteLength(weather), "rejected before the call's last delta");
    assert.equal(second.valid, true);
  });

  test('stop on an early rejection', async () => {
    // The rejection arrives while the provider is still generating; leaving
    // the loop ends the stream, and no further event is pulled or sent.
    const provider = new GatedProvider(EVENTS, COUNTRY_EVENT);
    let first;
    for await (const result of stream(provider, countryIn('FR'))) {
      first = result; // the provider yields nothing more until release(), below
      break;
    }
    assert.deepEqual([first.call_id, first.early], [CALLS[0].id, true]);
    assert.equal(provider.finished, false, 'the pull in progress is still waiting');
    provider.release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(provider.finished, true, 'the pull in progress ended, and its error was not reported');
    assert.equal(provider.yielded, COUNTRY_EVENT + 1, 'no event after the rejection was pulled');
  });

  test('close() and an aborted signal end the iteration without an error', async () => {
    const provider = new GatedProvider(EVENTS, COUNTRY_EVENT);
    const results = stream(provider, countryIn('FR'));
    const seen = [];
    for await (const result of results) {
      seen.push(result.call_id);
      results.close();
    }
    assert.deepEqual(seen, [CALLS[0].id]);
    provider.release();

    const controller = new AbortController();
    controller.abort();
    const aborted = client.validateStream(EVENTS, { provider: Provider.OPENAI_CHAT, signal: controller.signal });
    assert.deepEqual(await collect(aborted), []);
  });

  test("the server's end stops the pulls while the caller is busy", async (t) => {
    // A repeated call id ends the stream with INVALID_ARGUMENT while the
    // caller is still busy with the first call's result. The events are
    // returned at once: the pull in progress is their last, and the error
    // a provider's read meets later (as an aborted request's) is not
    // reported, since the server's came first.
    const watch = watched('A');
    t.after(() => watch.client.close());
    let afterEnd = 0;
    let returned;
    const finished = new Promise((resolve) => {
      returned = resolve;
    });
    async function* provider() {
      try {
        yield { start: { call_id: 'a', tool_name: 'todo' } };
        yield { end: { call_id: 'a' } };
        await watch.received(1); // a's result has arrived
        yield { start: { call_id: 'a', tool_name: 'todo' } };
        await watch.ended;
        for (let i = 0; i < 50; i++) {
          afterEnd++;
          yield { delta: { call_id: 'b', fragment: 'x' } };
        }
        throw new DOMException('The operation was aborted.', 'AbortError');
      } finally {
        returned();
      }
    }
    const seen = [];
    await assert.rejects(async () => {
      for await (const result of watch.client.validateStream(provider(), { tools: { todo: TODO } })) {
        seen.push(result.call_id);
        await finished;
      }
    }, { code: status.INVALID_ARGUMENT, details: /"a" was already started/ });
    assert.deepEqual(seen, ['a']);
    assert.equal(afterEnd, 1, 'only the pull in progress at the end settled');
  });

  test("results that arrived before the events' error come first", async (t) => {
    // The provider's connection resets after c1's result has arrived, while
    // the caller is busy with c0's: c1's result is delivered, then the error,
    // as gRPC delivers a server's messages before its error status.
    const watch = watched('A');
    t.after(() => watch.client.close());
    let reset;
    const failed = new Promise((resolve) => {
      reset = resolve;
    });
    async function* provider() {
      for (const id of ['c0', 'c1']) {
        yield { start: { call_id: id, tool_name: 'todo' } };
        yield { delta: { call_id: id, fragment: '{"action": "add"}' } };
        yield { end: { call_id: id } };
      }
      await watch.received(2);
      reset();
      throw new Error('connection reset by the provider');
    }
    const seen = [];
    await assert.rejects(async () => {
      for await (const result of watch.client.validateStream(provider(), { tools: { todo: TODO } })) {
        seen.push([result.call_id, result.valid]);
        await failed;
        await new Promise((resolve) => setImmediate(resolve)); // the failure has cancelled the call
      }
    }, /connection reset by the provider/);
    assert.deepEqual(seen, [['c0', true], ['c1', true]]);
  });

  test('explicit deltas, two calls interleaved', async () => {
    // call_2 is rejected at the "d" of "done" before its last delta, while
    // call_1 is still streaming.
    const events = [
      { start: { call_id: 'call_1', tool_name: 'todo' } },
      { start: { call_id: 'call_2', tool_name: 'todo' } },
      { delta: { call_id: 'call_1', fragment: '{"action": "upd' } },
      { delta: { call_id: 'call_2', fragment: '{"action": "update", "status": "do' } },
      { delta: { call_id: 'call_1', fragment: 'ate", "id": "7"}' } },
      { delta: { call_id: 'call_2', fragment: 'ne"}' } },
      { end: { call_id: 'call_1' } },
      { end: { call_id: 'call_2' } },
    ];
    const second = '{"action": "update", "status": "do';
    const got = await collect(client.validateStream(events, { tools: { todo: TODO } }));
    assert.deepEqual(got.map((r) => [r.call_id, r.valid, r.early]), [['call_2', false, true], ['call_1', true, false]]);
    assert.deepEqual(got[0].errors.map((e) => [e.keyword, e.instance_path, e.offset]), [['enum', '/status', offsetOf(second, '"do', 1)]]);
    assert.equal(got[0].bytes, Buffer.byteLength(second));
  });

  test('a surrogate pair split between fragments is joined; a lone surrogate is a TypeError', async () => {
    // A caller cutting a JavaScript string at a UTF-16 index may split a
    // pair; any other lone surrogate would reach the server as bytes that are
    // not UTF-8, and end the stream.
    const text = '{"action": "add", "id": "\u{1F600}"}';
    const cut = text.indexOf('\u{1F600}') + 1;
    const call = (...fragments) => [
      { start: { call_id: 'c', tool_name: 'todo' } },
      ...fragments.map((fragment) => ({ delta: { call_id: 'c', fragment } })),
      { end: { call_id: 'c' } },
    ];
    const [result] = await collect(client.validateStream(call(text.slice(0, cut), text.slice(cut)), { tools: { todo: TODO } }));
    assert.deepEqual([result.valid, result.bytes], [true, Buffer.byteLength(text)]);
    const cases = [
      ['a lone surrogate', call('{"action": "add", "id": "\ud800"}'), /holds a lone surrogate/],
      ['a pair cut at the end of the arguments', call(text.slice(0, cut)), /and the call ends/],
      ['a raw provider event', ['{"type": "\udc00"}'], /a raw provider event holds a lone surrogate/],
    ];
    for (const [name, events, error] of cases) {
      await assert.rejects(collect(client.validateStream(events, { tools: { todo: TODO }, provider: Provider.ANTHROPIC })),
        (err) => err instanceof TypeError && error.test(err.message), name);
    }
  });

  test('the end of events ends the calls still open', async () => {
    const events = [{ start: { call_id: 'c', tool_name: 'todo' } }, { delta: { call_id: 'c', fragment: '{"action": "add"' } }];
    const [result] = await collect(client.validateStream(events, { tools: { todo: TODO } }));
    assert.deepEqual([result.call_id, result.valid, result.early], ['c', false, false]);
    assert.deepEqual(result.errors.map((e) => e.keyword), ['json']);
  });

  test('an unbound tool', async () => {
    const [result] = await collect(client.validateStream([{ start: { call_id: 'c', tool_name: 'nope' } }, { end: { call_id: 'c' } }], { tools: { todo: TODO } }));
    assert.deepEqual(result.errors.map((e) => [e.code, e.keyword]), [[ErrorCode.VALIDATION, 'tool_name']]);
  });

  test('failures end the iteration with their error', async () => {
    async function* failing() {
      yield { start: { call_id: 'c', tool_name: 'todo' } };
      throw new Error('connection reset by the provider');
    }
    const cases = [
      ["the events' own error", failing(), {}, /connection reset/],
      ['an event of no known kind', [{ start: { call_id: 'c', tool_name: 'todo' } }, 42], {}, TypeError],
      ['a raw event without provider', ['{"type":"ping"}'], {}, /provider/],
      ['an event the server cannot parse', ['{not json'], { provider: Provider.ANTHROPIC }, { code: status.INVALID_ARGUMENT }],
      // Bound inline, a schema is compiled by the replica the stream reaches.
      ['a tool schema that does not compile', [], { tools: { t: { type: 'object', format: 'x' } } },
        { code: status.INVALID_ARGUMENT, details: /^bind: the schema of tool "t" does not compile/ }],
      ['a malformed handle', [], { handles: { t: 'tg1_x' } }, { code: status.INVALID_ARGUMENT, details: /^bind: tool "t"/ }],
    ];
    for (const [name, events, options, error] of cases) {
      await assert.rejects(collect(client.validateStream(events, { tools: { todo: TODO }, ...options })), error, name);
    }
  });

  test('options are checked at once', () => {
    const cases = [
      ['unknown provider name', { provider: 'anthropic' }],
      ['unknown profile name', { profile: 'PROFILE_STRICT' }],
      ['schema JSON cannot hold', { tools: { t: { n: Number.NaN } } }],
      ['tools that are not a plain object', { tools: new Map([['t', {}]]) }],
      ['resources that are not a plain object', { tools: { t: {} }, resources: ['x'] }],
      ['format assertion that is not a boolean', { tools: { t: {} }, formatAssertion: 'yes' }],
      ['handle that is not a string', { handles: { t: null } }],
      ['tool bound both ways', { tools: { t: {} }, handles: { t: `tg1_${'0'.repeat(64)}` } }],
      // A misspelling would change what is checked without a word.
      ['an option of another client', { tools: { t: {} }, format_assertion: true }],
      ['an unknown option without tools', { timeout: 5 }],
    ];
    for (const [name, options] of cases) {
      assert.throws(() => client.validateStream([], options), TypeError, name);
    }
    assert.throws(() => client.validateStream(undefined), TypeError);
  });

  test('a stream leaves no listener on its signal', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) {
      await collect(client.validateStream([], { signal: controller.signal }));
    }
    client.validateStream([], { signal: controller.signal }).close(); // never iterated
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  test('a named event that disagrees with its payload ends the stream', async () => {
    const delta = '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}';
    for (const data of [delta, new TextEncoder().encode(delta)]) {
      await assert.rejects(collect(client.validateStream([{ named: { name: 'ping', data } }], { tools: { todo: TODO }, provider: Provider.ANTHROPIC })),
        { code: status.INVALID_ARGUMENT, details: /named "ping", but its type is "content_block_delta"/ });
    }
  });

  test('a provider event in bytes keeps its byte order mark', async () => {
    const event = Uint8Array.of(0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"type":"ping"}'));
    await assert.rejects(collect(client.validateStream([event], { provider: Provider.ANTHROPIC })), { code: status.INVALID_ARGUMENT });
    assert.deepEqual(await collect(client.validateStream([new TextEncoder().encode('{"type":"ping"}')], { provider: Provider.ANTHROPIC })), []);
  });

  test('a tool named __proto__ is bound like any other', async () => {
    const tools = JSON.parse('{"__proto__": {"type": "object", "required": ["x"]}}');
    const [result] = await collect(client.validateStream([{ start: { call_id: 'c', tool_name: '__proto__' } }, { end: { call_id: 'c' } }], { tools }));
    assert.equal(result.valid, false);
    assert.equal(result.errors[0].keyword, 'required', 'validated against its schema, not refused as unbound');
  });

  test('a ResultStream is iterated once', async () => {
    const results = client.validateStream([]);
    assert.deepEqual(await collect(results), []);
    await assert.rejects(collect(results), TypeError);
  });
});

describe('validateOutputStream with tools', () => {
  // A model given response_format and tools may answer in JSON or call a
  // tool: the answer is checked against the output schema, each call
  // against its tool's.
  let client;
  before(() => {
    client = connect('A');
  });
  after(() => client.close());

  const OUTPUT = { type: 'object', required: ['reason'], properties: { reason: { type: 'string', enum: ['damaged_item', 'wrong_item', 'other'] } } };
  const ANSWER = '{"reason": "other"}';
  const stream = (events, options) => client.validateOutputStream(events, OUTPUT, { provider: Provider.OPENAI_CHAT, deadline: Date.now() + 30_000, ...options });
  const byId = (results) => [...results].sort((a, b) => (a.call_id < b.call_id ? -1 : 1));

  test('the answer and each tool call, each against its own schema', async () => {
    const cases = [
      ['a valid call', '{"action": "add", "id": "7"}', [true, false, []]],
      // Rejected at the "l" of "list", the enum's first impossible byte.
      ['an invalid call', '{"action": "list"}', [false, true, [['enum', '/properties/action/enum', '/action', offsetOf('{"action": "list"}', '"list"', 1)]]]],
    ];
    for (const [name, args, [valid, early, findings]] of cases) {
      const got = byId(await collect(stream(chatAnswerAndCalls(ANSWER, ['call_1', 'todo', args]), { tools: { todo: TODO } })));
      assert.deepEqual(got.map((r) => [r.call_id, r.tool_name, r.valid, r.early]), [['call_1', 'todo', valid, early], ['output/0', '', true, false]], name);
      assert.deepEqual(got[0].errors.map((e) => [e.keyword, e.schema_path, e.instance_path, e.offset]), findings, name);
      assert.equal(got[1].bytes, Buffer.byteLength(ANSWER), name);
    }
  });

  test('an answer sent as plain deltas is held to the output schema and stripCodeFence', async () => {
    const text = '```json\n{"reason": "other"}\n```';
    const deltas = (id, s) => [...s.matchAll(/.{1,5}/gs)].map(([fragment]) => ({ delta: { call_id: id, fragment } }));
    const events = [
      { answer: { call_id: 'a1' } }, ...deltas('a1', text), { end: { call_id: 'a1' } },
      { answer: { call_id: 'a2' } }, ...deltas('a2', '{"reason": "late"}'), { end: { call_id: 'a2' } },
    ];
    const got = byId(await collect(stream(events, { stripCodeFence: true })));
    assert.deepEqual(got.map((r) => [r.call_id, r.tool_name, r.valid, r.early]), [['a1', '', true, false], ['a2', '', false, true]]);
    assert.equal(got[0].bytes, Buffer.byteLength(text), 'the fence is counted, though skipped');
    assert.deepEqual(got[1].errors.map((e) => [e.keyword, e.instance_path, e.offset]), [['enum', '/reason', offsetOf('{"reason": "late"}', '"late"', 1)]]);
    // Without stripCodeFence the fence is the answer's first finding, at its first byte.
    const [fenced] = await collect(stream(events.slice(0, deltas('a1', text).length + 2)));
    assert.deepEqual([fenced.call_id, fenced.valid, fenced.errors[0].keyword, fenced.errors[0].offset], ['a1', false, 'json', 0]);
    // A stream that binds no output has no answer to hold it to.
    await assert.rejects(collect(client.validateStream([{ answer: { call_id: 'a' } }, { end: { call_id: 'a' } }])), { code: status.INVALID_ARGUMENT });
  });

  test('a call of a tool bound neither way gets keyword "tool_name"; the answer is still checked', async () => {
    const events = chatAnswerAndCalls('{"reason": "broken"}', ['call_1', 'search', '{}'], ['call_2', 'todo', '{"action": "add"}']);
    const got = byId(await collect(stream(events, { tools: { todo: TODO } })));
    assert.deepEqual(got.map((r) => [r.call_id, r.valid, r.errors.map((e) => e.keyword)]), [['call_1', false, ['tool_name']], ['call_2', true, []], ['output/0', false, ['enum']]]);
  });

  test('the profile is the answer\'s, toolProfile the tools\'; resources and the format assertion apply to both', async () => {
    // Everything is in the resource, so that "soon" is refused only where the
    // format assertion arrived, and {} only where the resource did.
    const uri = 'https://example.com/toolgate-interop/output-event.json';
    const resources = { [uri]: { type: 'object', properties: { on: { type: 'string', format: 'date' } }, required: ['on'] } };
    const events = chatAnswerAndCalls('{"on": "soon"}', ['c0', 't', '{"on": "soon"}'], ['c1', 't', '{}'], ['c2', 't', '{"on": "2024-05-01"}']);
    const cases = [
      ['format asserted', true, [['c0', false, ['format']], ['c1', false, ['required']], ['c2', true, []], ['output/0', false, ['format']]]],
      ['format an annotation', false, [['c0', true, []], ['c1', false, ['required']], ['c2', true, []], ['output/0', true, []]]],
    ];
    for (const [name, formatAssertion, want] of cases) {
      const options = { tools: { t: { $ref: uri } }, profile: Profile.JSON_SCHEMA, toolProfile: Profile.JSON_SCHEMA, resources, formatAssertion };
      const got = byId(await collect(client.validateOutputStream(events, { $ref: uri }, { provider: Provider.OPENAI_CHAT, ...options })));
      assert.deepEqual(got.map((r) => [r.call_id, r.valid, r.errors.map((e) => e.keyword)]), want, name);
    }
  });

  test('a tool schema that does not compile ends the stream, naming the tool', async () => {
    // "format" is outside the tool input profile, the default toolProfile;
    // the output's profile is not the tools'.
    const dated = { type: 'object', properties: { on: { type: 'string', format: 'date' } } };
    const events = chatAnswerAndCalls(ANSWER, ['c0', 'dated', '{"on": "2024-05-01"}']);
    for (const options of [{}, { profile: Profile.JSON_SCHEMA }]) {
      await assert.rejects(collect(stream(events, { tools: { todo: TODO, dated }, ...options })),
        { code: status.INVALID_ARGUMENT, details: /^bind: the schema of tool "dated" does not compile.*"format"/ }, JSON.stringify(options));
    }
    // Under the JSON Schema profile it compiles, and the call is validated.
    const got = byId(await collect(stream(events, { tools: { todo: TODO, dated }, toolProfile: Profile.JSON_SCHEMA })));
    assert.deepEqual(got.map((r) => [r.call_id, r.valid]), [['c0', true], ['output/0', true]]);
  });
});

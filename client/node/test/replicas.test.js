// Streams on any replica: a client whose calls a balancer sends to replica
// A and whose streams it sends to replica B, which never saw the schemas.
// The stream helpers bind inline, so B validates every call; a caller that
// binds by handle gets the in-band NOT_FOUND result on B.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client, ErrorCode, Profile, Provider, status } from '../index.js';
import { bindRequests, MAX_BIND_BYTES } from '../lib/binds.js';
import { compileRequest } from '../lib/messages.js';
import { chatAnswerAndCalls, collect, connect, countryIn, offsetOf, recording, replicaAddress, STOCK, SwitchChannel, unique, WEATHER } from './support.js';

// The recording: GetWeatherArgs, then get_stock_price (see testdata/PROVENANCE.md).
const { events: EVENTS, expected: CALLS } = recording('openai-chat/parallel-weather-and-stock');

// A JSON Schema profile tool whose schema is all in a resource, so that a
// call is checked as meant only when the resource travelled with the schema.
const EVENT_URI = 'https://example.com/toolgate-interop/event.json';
const EVENT_RESOURCES = { [EVENT_URI]: { type: 'object', properties: { on: { type: 'string', format: 'date' } }, required: ['on'] } };

/** Explicit events for one call of `tool` per argument text, with ids `${prefix}0`, `${prefix}1`, ... */
function calls(tool, prefix, ...args) {
  return args.flatMap((fragment, i) => [
    { start: { call_id: `${prefix}${i}`, tool_name: tool } },
    { delta: { call_id: `${prefix}${i}`, fragment } },
    { end: { call_id: `${prefix}${i}` } },
  ]);
}

const byId = (results) => results.map((r) => [r.call_id, r.valid, r.errors.map((e) => e.keyword)]).sort(([a], [b]) => (a < b ? -1 : 1));

describe('streams on any replica', () => {
  let client; // calls A, streams through B
  let switchChannel;
  const direct = {};
  before(() => {
    switchChannel = new SwitchChannel({ A: replicaAddress('A'), B: replicaAddress('B') });
    switchChannel.route('A', { streams: 'B' });
    client = new Client('switch', { insecure: true, clientOptions: { channelOverride: switchChannel } });
    direct.A = connect('A');
    direct.B = connect('B');
  });
  after(() => {
    direct.A.close();
    direct.B.close();
    switchChannel.close();
  });

  /** Compiles `schema` on A through the client and checks that B does not hold it. */
  async function compiledOnA(schema, options) {
    const { handle } = await client.compile(schema, options);
    assert.ok(handle);
    await assert.rejects(direct.B.validate(handle, '{}'), { code: status.NOT_FOUND }, 'B must not hold the schema yet');
    return handle;
  }

  test('compiled on A, streamed through B: every call validated', async () => {
    const cases = [
      ['every call valid', WEATHER, CALLS.map((c) => [c.id, c.name, true, false])],
      // The schema is enforced, not only accepted: the weather call is
      // rejected at the byte after "G" of "GB".
      ['an early rejection', countryIn('FR'), [[CALLS[0].id, CALLS[0].name, false, true], [CALLS[1].id, CALLS[1].name, true, false]]],
    ];
    for (const [name, weather, want] of cases) {
      const tools = { GetWeatherArgs: unique(weather), get_stock_price: unique(STOCK) };
      const handles = {};
      for (const [tool, schema] of Object.entries(tools)) {
        handles[tool] = await compiledOnA(schema);
      }
      const got = await collect(client.validateStream(EVENTS, { tools, provider: Provider.OPENAI_CHAT, deadline: Date.now() + 30_000 }));
      assert.deepEqual(got.map((r) => [r.call_id, r.tool_name, r.valid, r.early]), want, name);
      if (!got[0].valid) {
        assert.deepEqual(got[0].errors.map((e) => [e.keyword, e.offset]), [['enum', offsetOf(CALLS[0].arguments, '"GB"', 1)]], name);
      }
      // B compiled what the stream carried, to the handles A computed.
      for (const [i, tool] of Object.keys(tools).entries()) {
        assert.equal((await direct.B.validate(handles[tool], CALLS[i].arguments)).valid, want[i][2], `${name}: ${tool}`);
      }
    }
  });

  test('a tool bound by handle on B gets the in-band NOT_FOUND result', async () => {
    // Its call is not validated, early; the stream goes on to validate the
    // other call. On A, which holds the handle, the same bind validates.
    const handle = await compiledOnA(unique(WEATHER));
    const bind = { handles: { GetWeatherArgs: handle }, tools: { get_stock_price: unique(STOCK) }, provider: Provider.OPENAI_CHAT };
    const [notHeld, other] = await collect(client.validateStream(EVENTS, bind));
    assert.deepEqual([notHeld.call_id, notHeld.tool_name, notHeld.valid, notHeld.early, notHeld.bytes, notHeld.code],
      [CALLS[0].id, 'GetWeatherArgs', false, true, 0, ErrorCode.NOT_FOUND]);
    assert.deepEqual(notHeld.errors.map((e) => [e.code, e.keyword, e.schema_path, e.instance_path]), [[ErrorCode.NOT_FOUND, 'handle', '', '']]);
    assert.match(notHeld.errors[0].message, new RegExp(handle));
    assert.deepEqual([other.call_id, other.valid], [CALLS[1].id, true]);

    const onA = await collect(direct.A.validateStream(EVENTS, bind));
    assert.deepEqual(onA.map((r) => [r.call_id, r.valid]), CALLS.map((c) => [c.id, true]));
  });

  test('the profile, resources and format assertion travel inline', async () => {
    // "soon" is not a date only when format is asserted, and {} misses "on"
    // only when the resource arrived.
    const schema = unique({ $ref: EVENT_URI });
    const events = calls('t', 'c', '{"on": "soon"}', '{"on": "2024-05-01"}', '{}');
    const cases = [
      ['format asserted', true, [['c0', false, ['format']], ['c1', true, []], ['c2', false, ['required']]]],
      ['format an annotation', false, [['c0', true, []], ['c1', true, []], ['c2', false, ['required']]]],
    ];
    for (const [name, formatAssertion, want] of cases) {
      const options = { profile: Profile.JSON_SCHEMA, resources: EVENT_RESOURCES, formatAssertion };
      await compiledOnA(schema, options);
      assert.deepEqual(byId(await collect(client.validateStream(events, { tools: { t: schema }, ...options }))), want, name);
    }
  });

  test('a large toolset binds in several messages', async () => {
    // Three schemas of 0.4 MiB each: more than one bind can carry.
    const padding = 'p'.repeat(Math.floor((MAX_BIND_BYTES * 2) / 5));
    const tools = {};
    for (let i = 0; i < 3; i++) {
      const { description } = unique({});
      tools[`tool_${i}`] = { type: 'object', properties: { n: { type: 'integer', minimum: i } }, required: ['n'], description: `${description} ${padding}` };
      await compiledOnA(tools[`tool_${i}`]);
    }
    const requests = Object.fromEntries(Object.entries(tools).map(([name, schema]) => [name, compileRequest(schema)]));
    assert.ok(bindRequests({ tools: requests }).length > 1, 'precondition: the tools need several binds');
    const events = Object.keys(tools).flatMap((tool, i) => [...calls(tool, `ok_${i}_`, `{"n": ${i}}`), ...calls(tool, `low_${i}_`, `{"n": ${i - 1}}`)]);
    const got = byId(await collect(client.validateStream(events, { tools, deadline: Date.now() + 60_000 })));
    assert.deepEqual(got.map(([id, valid]) => [id, valid]), [0, 1, 2].flatMap((i) => [[`low_${i}_0`, false], [`ok_${i}_0`, true]]).sort(([a], [b]) => (a < b ? -1 : 1)));
  });

  describe('structured output', () => {
    // Two choices of an OpenAI Chat structured-output stream, interleaved:
    // choice 1 is rejected at the "b" of "broken" while choice 0 streams on.
    const OUTPUT_EVENTS = [
      '{"choices":[{"index":0,"delta":{"role":"assistant","content":"{\\"reason\\": \\"wro"},"finish_reason":null}]}',
      '{"choices":[{"index":1,"delta":{"role":"assistant","content":"{\\"reason\\": \\"broken\\"}"},"finish_reason":null}]}',
      '{"choices":[{"index":0,"delta":{"content":"ng_item\\"}"},"finish_reason":null}]}',
      '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      '{"choices":[{"index":1,"delta":{},"finish_reason":"stop"}]}',
    ];
    const SCHEMA = { type: 'object', required: ['reason'], properties: { reason: { type: 'string', enum: ['damaged_item', 'wrong_item', 'other'] } } };
    /** One choice whose whole answer is `text`, then its end. */
    const answer = (text) => [
      JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
      '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
    ];

    test('each answer is validated as it streams', async () => {
      const [rejected, accepted] = await collect(client.validateOutputStream(OUTPUT_EVENTS, unique(SCHEMA), { provider: Provider.OPENAI_CHAT }));
      assert.deepEqual([rejected.call_id, rejected.tool_name, rejected.valid, rejected.early], ['output/1', '', false, true]);
      assert.deepEqual(rejected.errors.map((e) => [e.keyword, e.schema_path, e.instance_path, e.offset]),
        [['enum', '/properties/reason/enum', '/reason', offsetOf('{"reason": "broken"}', '"broken"', 1)]]);
      assert.deepEqual([accepted.call_id, accepted.valid, accepted.bytes], ['output/0', true, Buffer.byteLength('{"reason": "wrong_item"}')]);
    });

    test('a code fence', async () => {
      const fenced = '```json\n{"reason": "other"}\n```';
      const cases = [['stripped', true, true, []], ['not stripped', false, false, [['json', 0]]]];
      for (const [name, stripCodeFence, valid, findings] of cases) {
        const [result] = await collect(client.validateOutputStream(answer(fenced), unique(SCHEMA), { provider: Provider.OPENAI_CHAT, stripCodeFence }));
        assert.deepEqual([result.call_id, result.valid, result.errors.map((e) => [e.keyword, e.offset])], ['output/0', valid, findings], name);
      }
    });

    test('a tool bound by handle: validated on the replica that compiled it, NOT_FOUND on another', async () => {
      // The answer travels inline, so both replicas check it.
      const todo = unique({ type: 'object', required: ['action'], properties: { action: { type: 'string', enum: ['add', 'update'] } } });
      const handle = await compiledOnA(todo);
      const events = chatAnswerAndCalls('{"reason": "other"}', ['call_1', 'todo', '{"action": "add"}'], ['call_2', 'todo', '{"action": "drop"}']);
      const options = { provider: Provider.OPENAI_CHAT, handles: { todo: handle } };
      const onA = byId(await collect(direct.A.validateOutputStream(events, unique(SCHEMA), options)));
      assert.deepEqual(onA, [['call_1', true, []], ['call_2', false, ['enum']], ['output/0', true, []]]);
      const onB = await collect(client.validateOutputStream(events, unique(SCHEMA), options));
      assert.deepEqual(byId(onB), [['call_1', false, ['handle']], ['call_2', false, ['handle']], ['output/0', true, []]]);
      assert.ok(onB.filter((r) => r.call_id !== 'output/0').every((r) => r.code === ErrorCode.NOT_FOUND && r.early && r.bytes === 0), 'not validated');
    });

    test('failures', async () => {
      const nested = { type: 'object', properties: { a: { type: 'object' } } }; // not bindable
      await assert.rejects(collect(client.validateOutputStream(answer('{}'), nested, { provider: Provider.OPENAI_CHAT })),
        { code: status.INVALID_ARGUMENT, details: /^bind: the output schema/ });
      const cases = [
        ['a fence flag that is not a boolean', { stripCodeFence: 'yes' }],
        ['an unknown profile', { profile: 'PROFILE_OUTPUT' }],
        ['an unknown provider', { provider: 'openai' }],
      ];
      for (const [name, options] of cases) {
        assert.throws(() => client.validateOutputStream([], SCHEMA, { provider: Provider.OPENAI_CHAT, ...options }), TypeError, name);
      }
    });
  });
});

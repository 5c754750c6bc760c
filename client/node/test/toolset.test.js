// compileToolset against a real replica: every form of tools, admission,
// and what bind is for.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Admission, ErrorCode, Profile, status } from '../index.js';
import { collect, connect, STOCK, unique, WEATHER } from './support.js';

// A tool the tool input profile cannot enforce: `format` is outside it.
const FETCH = { type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'] };

/** A tools/list result's JSON text: one tool per [name, inputSchema]. */
const toolsList = (...tools) => JSON.stringify({ tools: tools.map(([name, inputSchema]) => ({ name, description: `The ${name} tool.`, inputSchema })) });

/** Each tool result as [name, code, [finding code, keyword, schema_path]...]. */
const summary = (result) => result.tools.map((t) => [t.name, t.code, t.errors.map((e) => [e.code, e.keyword, e.schema_path])]);

describe('compileToolset', () => {
  let client;
  before(() => {
    client = connect('A');
  });
  after(() => client.close());

  test('one tool compiles, one does not: quarantine binds the one, strict binds none', async () => {
    const weather = unique(WEATHER);
    const list = toolsList(['weather', weather], ['fetch', FETCH]);
    const { handle } = await client.compile(weather);
    const refused = ['fetch', ErrorCode.UNSUPPORTED_CAPABILITY, [[ErrorCode.UNSUPPORTED_CAPABILITY, 'format', '/properties/url/format']]];
    for (const [name, admission] of [['default', undefined], ['quarantine', Admission.QUARANTINE]]) {
      const result = await client.compileToolset(list, { admission });
      assert.deepEqual(summary(result), [['weather', ErrorCode.UNSPECIFIED, []], refused], name);
      assert.deepEqual(result.tools.map((t) => t.handle), [handle, ''], `${name}: the handle is compile()'s`);
      assert.deepEqual(result.bind, { weather: handle }, name);
      assert.equal(result.admitted, true, name);
    }
    const strict = await client.compileToolset(list, { admission: Admission.STRICT });
    assert.deepEqual(summary(strict), [['weather', ErrorCode.UNSPECIFIED, []], refused]);
    assert.equal(strict.tools[0].handle, handle, 'strict: a compiled tool still reports its handle');
    assert.deepEqual(strict.bind, {});
    assert.equal(strict.admitted, false);
    const all = await client.compileToolset(toolsList(['weather', weather]), { admission: Admission.STRICT });
    assert.deepEqual([all.bind, all.admitted], [{ weather: handle }, true], 'strict binds when every tool compiles');
  });

  test('one page of a paginated tools/list: its tools bound, more_pages set', async () => {
    const weather = unique(WEATHER);
    const page = JSON.stringify({ ...JSON.parse(toolsList(['weather', weather])), nextCursor: 'cGFnZT0y' });
    const result = await client.compileToolset(page);
    assert.equal(result.more_pages, true, 'a nextCursor: the list goes on');
    assert.deepEqual(Object.keys(result.bind), ['weather'], "the page's tools are bound");
    assert.equal((await client.compileToolset(toolsList(['weather', weather]))).more_pages, false);
  });

  test('a handle from bind validates arguments, and bind feeds validateStream', async () => {
    const { bind } = await client.compileToolset(toolsList(['weather', unique(WEATHER)], ['fetch', FETCH]));
    assert.equal((await client.validate(bind.weather, { city: 'Oslo', country: 'NO', units: 'c' })).valid, true);
    const invalid = await client.validate(bind.weather, { city: 'Oslo', country: 'NO', units: 'k' });
    assert.deepEqual(invalid.errors.map((e) => [e.keyword, e.instance_path]), [['enum', '/units']]);

    const call = (id, tool, fragment) => [{ start: { call_id: id, tool_name: tool } }, { delta: { call_id: id, fragment } }, { end: { call_id: id } }];
    const events = [...call('c1', 'weather', '{"city": "Oslo", "country": "NO", "units": "f"}'), ...call('c2', 'fetch', '{"url": "x"}')];
    const results = await collect(client.validateStream(events, { handles: bind }));
    // fetch was not bound: its call names a tool the stream does not know.
    assert.deepEqual(results.map((r) => [r.call_id, r.valid, r.errors.map((e) => e.keyword)]).sort(), [['c1', true, []], ['c2', false, ['tool_name']]]);
  });

  test('a repeated tool name is refused, every time it occurs', async () => {
    const result = await client.compileToolset(toolsList(['stock', STOCK], ['twice', WEATHER], ['twice', STOCK]));
    const repeated = ['twice', ErrorCode.VALIDATION, [[ErrorCode.VALIDATION, 'name', '']]];
    assert.deepEqual(summary(result), [['stock', ErrorCode.UNSPECIFIED, []], repeated, repeated]);
    assert.deepEqual(Object.keys(result.bind), ['stock']);
    assert.deepEqual(result.tools.slice(1).map((t) => t.handle), ['', '']);
  });

  test('tools/list text is sent unchanged: numbers stay exact', async () => {
    // 2**53 + 1 is not a double: a client that went through one would accept 2**53.
    const list = '{"tools": [{"name": "n", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 9007199254740993}}}}]}';
    const { bind } = await client.compileToolset(list);
    assert.equal((await client.validate(bind.n, '{"n": 9007199254740992}')).valid, false);
    assert.equal((await client.validate(bind.n, '{"n": 9007199254740993}')).valid, true);
  });

  test('every form of the same tools gives the same answer', async () => {
    const weather = unique(WEATHER);
    const want = await client.compileToolset(toolsList(['weather', weather], ['fetch', FETCH]));
    assert.notEqual(want.bind.weather, undefined);
    const tools = JSON.parse(toolsList(['weather', weather], ['fetch', FETCH]));
    const forms = [
      ['a tools/list object', tools],
      ['a JSON-RPC response object', { jsonrpc: '2.0', id: 7, result: tools }],
      ['a JSON-RPC response as text', JSON.stringify({ jsonrpc: '2.0', id: 7, result: tools })],
      ['a plain object from name to schema', { weather, fetch: FETCH }],
      ['a Map from name to schema text', new Map([['weather', JSON.stringify(weather)], ['fetch', JSON.stringify(FETCH)]])],
    ];
    for (const [name, form] of forms) {
      assert.deepEqual(await client.compileToolset(form), want, name);
    }
  });

  test('PROFILE_JSON_SCHEMA with resources and the format assertion', async () => {
    const uri = 'https://example.com/toolgate-interop/toolset-event.json';
    const resources = { [uri]: { type: 'object', properties: { on: { type: 'string', format: 'date' } }, required: ['on'] } };
    const tools = new Map([['event', { $ref: uri, 'x-origin': 'mcp' }]]);
    const options = { profile: Profile.JSON_SCHEMA, resources, formatAssertion: true };
    const { tools: [event], bind } = await client.compileToolset(tools, options);
    assert.equal(event.code, ErrorCode.UNSPECIFIED);
    assert.deepEqual(event.warnings.map((w) => [w.keyword, w.schema_path]), [['x-origin', '/x-origin']], 'unknown keywords are warnings');
    const cases = [['a date', '{"on": "2025-03-01"}', []], ['not a date', '{"on": "tomorrow"}', ['format']], ['missing', '{}', ['required']]];
    for (const [name, args, want] of cases) {
      assert.deepEqual((await client.validate(bind.event, args)).errors.map((e) => e.keyword), want, name);
    }
    // Without the resource the reference cannot be followed.
    const [unresolved] = (await client.compileToolset(tools, { profile: Profile.JSON_SCHEMA })).tools;
    assert.deepEqual([unresolved.code, unresolved.errors.map((e) => [e.keyword, e.schema_path])], [ErrorCode.UNSUPPORTED_CAPABILITY, [['$ref', '/$ref']]]);
  });

  test('what cannot be sent is a TypeError; a document that is no tools/list is INVALID_ARGUMENT', async () => {
    await assert.rejects(client.compileToolset([{ name: 'a', inputSchema: WEATHER }]), TypeError);
    await assert.rejects(client.compileToolset({ tools: [] }, { admission: 'STRICT' }), TypeError);
    for (const document of ['{"tool": []}', { jsonrpc: '2.0', id: 1, result: { tool: [] } }, 'not JSON']) {
      await assert.rejects(client.compileToolset(document), { code: status.INVALID_ARGUMENT }, String(document));
    }
  });
});

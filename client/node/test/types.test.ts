// Type-checked by `npm run typecheck` (tsc --noEmit, strict), never run:
// uses of the API as a TypeScript program would write them. Each line after
// an expect-error directive must fail to type-check, or tsc reports it.

import { Admission, Client, ClientClosedError, ErrorCode, jsonText, Profile, Provider, SchemaError, status, StreamReceiptError } from 'toolgate';
import type { CallError, CallResult, Finding, JSONInput, StreamEvent, ToolResult, ToolsetResult, ToolsListDocument, ValidationResult } from 'toolgate';

// Declared types of JSON input: an interface has no index signature, and
// `as const` makes readonly arrays; both are checked member by member.
interface WeatherArgs {
  city: string;
  days?: number;
  tags: string[];
}
interface Schema {
  type?: string;
  properties?: { [name: string]: Schema };
  items?: Schema | readonly Schema[];
  required?: string[];
  default?: string | number | boolean | null;
}
interface WithMethod {
  city: string;
  describe(): string;
}

export async function declared(client: Client, args: WeatherArgs, schema: Schema, withMethod: WithMethod): Promise<void> {
  const weather = { type: 'object', required: ['city'], properties: { city: { type: 'string' }, days: { enum: [1, 2] } } } as const;
  const { handle } = await client.compile(weather, { resources: { 'https://example.com/s': schema, 'https://example.com/t': weather } });
  await client.compile(schema);
  await client.validate(handle, args);
  await client.validateSchema(schema, args);
  client.validateStream([], { tools: { weather, schema } });
  client.validateOutputStream([], schema, { resources: { 'https://example.com/s': weather } });
  client.validateOutputStream([], weather, { tools: { weather, schema }, toolProfile: Profile.JSON_SCHEMA });
  await client.compileToolset({ weather, schema });
  await client.compileToolset(new Map([['schema', schema]]));
  await client.compileToolset({ tools: [{ name: 'weather', inputSchema: weather }] } as const);
  await client.compileToolset({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'schema', inputSchema: schema }] } });
  const validator = client.validator();
  await validator.register(schema, { resources: { 'https://example.com/s': schema } });
  await validator.validate(handle, args);
  await validator.validateSchema(weather, args);
  console.log(jsonText(args, 'arguments'));
  const anyDocument: JSONInput = { type: 'object', enum: [[1], { a: null }] };
  await client.compile(anyDocument);
  // A member typed unknown is the runtime's to check, as an MCP SDK tool's inputSchema has them.
  await client.compileToolset({ tools: [{ name: 'weather', inputSchema: { type: 'object' } as { type: 'object'; [key: string]: unknown } }] });
  await client.validate(handle, JSON.parse('{}') as Record<string, unknown>);

  // @ts-expect-error: a member that is a method is not JSON
  await client.validate(handle, withMethod);
  // @ts-expect-error: a function is not JSON
  await client.validate(handle, { city: 'Oslo', f() {} });
  // @ts-expect-error: a BigInt is not JSON
  await client.validate(handle, { days: 1n });
  // @ts-expect-error: a Date is not JSON (JSON.stringify would write its text)
  await client.validate(handle, { when: new Date() });
  // @ts-expect-error: a Map is not JSON (JSON.stringify would write {})
  await client.compile({ enum: new Map() });
  // @ts-expect-error: undefined is not JSON, in a tool's schema either
  client.validateStream([], { tools: { weather: { type: undefined } } });
  // @ts-expect-error: nor in the schema of an output stream's tool
  client.validateOutputStream([], schema, { tools: { weather: { type: undefined } } });
  // @ts-expect-error: nor in a resource
  await client.compile(schema, { resources: { 'https://example.com/s': { f: () => 1 } } });
  // @ts-expect-error: nor in a tools/list document
  await client.compileToolset({ tools: [{ name: 'w', inputSchema: { type: undefined } }] });
  // @ts-expect-error: nor in a Map of tools
  await client.compileToolset(new Map([['w', { type: undefined }]]));
  // @ts-expect-error: a number is JSON, but no document
  await client.compile(5);
}

export async function uses(client: Client): Promise<void> {
  const compiled = await client.compile({ type: 'object' }, { profile: Profile.JSON_SCHEMA });
  const handle: string = compiled.handle;
  const result: ValidationResult = await client.validate(handle, '{"a": 1}');
  const first: Finding | undefined = result.errors[0];
  const offset: number | undefined = first?.offset;
  const code: ErrorCode = result.code;
  if (code === ErrorCode.VALIDATION && offset !== undefined) {
    console.log(first?.instance_path, offset + 1);
  }

  // Error is still the global Error: no generated type shadows it.
  const plain: Error = new Error('x');
  const schemaError: Error = new SchemaError(compiled);
  console.log(plain instanceof Error, schemaError.message, status.NOT_FOUND);

  const events: StreamEvent[] = [{ start: { call_id: 'c', tool_name: 't' } }, { end: { call_id: 'c' } }];
  const answer: StreamEvent[] = [{ answer: { call_id: 'a' } }, { delta: { call_id: 'a', fragment: '{}' } }, { end: { call_id: 'a' } }];
  // @ts-expect-error: an answer names no tool
  const named: StreamEvent = { answer: { call_id: 'a', tool_name: 't' } };
  console.log(answer.length, named);
  for await (const r of client.validateStream(events, { tools: { t: { type: 'object' } } })) {
    const callResult: CallResult = r;
    console.log(callResult.early, callResult.bytes + 1);
  }
  // A stream without the server's receipt fails as a ServiceError would.
  try {
    for await (const r of client.validateStream(events)) {
      console.log(r.call_id);
      // @ts-expect-error: the receipt is never yielded: a result has no end
      console.log(r.end);
    }
  } catch (err) {
    if (err instanceof StreamReceiptError) {
      const failed: CallError = err;
      const internal: typeof status.INTERNAL = err.code;
      console.log(failed.details, internal, err.metadata.getMap());
    }
  }
  // A call on a closed Client fails as a ServiceError would.
  try {
    await client.compile({ type: 'object' });
  } catch (err) {
    if (err instanceof ClientClosedError) {
      const failed: CallError = err;
      const cancelled: typeof status.CANCELLED = err.code;
      console.log(failed.details, cancelled, err.metadata.getMap());
    }
  }
  const raw = client.validateStream(['{}'], { provider: Provider.ANTHROPIC });
  raw.close();
  const full = { profile: Profile.JSON_SCHEMA, resources: { 'https://example.com/s': { type: 'string' } }, formatAssertion: true };
  await client.compile({ $ref: 'https://example.com/s' }, full);
  client.validateStream(events, { tools: { t: { $ref: 'https://example.com/s' } }, handles: { u: handle }, ...full });
  for await (const answer of client.validateOutputStream(['{}'], { type: 'object' }, { provider: Provider.OPENAI_CHAT, stripCodeFence: true })) {
    console.log(answer.call_id, answer.code === ErrorCode.NOT_FOUND);
  }

  const list: ToolsListDocument = { tools: [{ name: 't', inputSchema: { type: 'object' } }] };
  const toolset: ToolsetResult = await client.compileToolset(list, { admission: Admission.STRICT, ...full, deadline: Date.now() + 1000 });
  const refused: ToolResult[] = toolset.tools.filter((t) => t.code !== ErrorCode.UNSPECIFIED);
  console.log(refused[0]?.warnings_truncated, toolset.admitted, toolset.bind['t']);
  client.validateStream(events, { handles: toolset.bind });
  // An answer or a tool call: the tools bound inline and by handle, compiled under their own profile.
  client.validateOutputStream(['{}'], { type: 'object' }, {
    provider: Provider.OPENAI_CHAT,
    tools: { t: '{"type": "object"}', s: { $ref: 'https://example.com/s' } },
    handles: toolset.bind,
    toolProfile: Profile.JSON_SCHEMA,
    ...full,
  });
  await client.compileToolset('{"tools": []}');
  await client.compileToolset({ jsonrpc: '2.0', id: 1, result: list });
  await client.compileToolset(new Map([['t', '{"type": "object"}']]));
  await client.compileToolset({ t: { type: 'object' } });

  // Every call takes an AbortSignal beside its deadline.
  const abort = new AbortController();
  await client.compile({ type: 'object' }, { signal: abort.signal, deadline: new Date(Date.now() + 1000) });
  await client.validate(handle, {}, { signal: abort.signal });
  await client.validator().validateSchema({ type: 'object' }, {}, { signal: AbortSignal.timeout(1000) });
  // @ts-expect-error: a signal is an AbortSignal, not its controller
  await client.validate(handle, {}, { signal: abort });

  // @ts-expect-error: an admission is a name, not a number
  await client.compileToolset(list, { admission: 2 });
  // @ts-expect-error: results are read-only
  toolset.admitted = true;
  // @ts-expect-error: tools are JSON, a tools/list or a name to schema map
  await client.compileToolset([list]);
  // @ts-expect-error: a profile is a name, not a number
  await client.compile('{}', { profile: 3 });
  // @ts-expect-error: not a Provider name
  client.validateStream([], { provider: 'PROVIDER_OPENAI' });
  // @ts-expect-error: explicit events use the proto field names
  client.validateStream([{ delta: { callId: 'c', fragment: '' } }]);
  // @ts-expect-error: results are read-only
  result.valid = true;
  // @ts-expect-error: undefined is not JSON
  await client.validate(handle, { a: undefined });
  // @ts-expect-error: a handle is a string
  client.validateStream(events, { handles: { t: 5 } });
  // @ts-expect-error: the format assertion is a boolean
  await client.compile('{}', { formatAssertion: 'yes' });
  // @ts-expect-error: a tool profile is a name, not a number
  client.validateOutputStream(['{}'], {}, { toolProfile: 1 });
  // @ts-expect-error: an output stream's tools are an object of schemas, not an array
  client.validateOutputStream(['{}'], {}, { tools: [{ type: 'object' }] });
  // @ts-expect-error: an output stream's handle is a string
  client.validateOutputStream(['{}'], {}, { handles: { t: 5 } });
  // @ts-expect-error: an output stream takes its schema
  client.validateOutputStream(['{}']);
}

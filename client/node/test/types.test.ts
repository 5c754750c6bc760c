// Type-checked by `npm run typecheck` (tsc --noEmit, strict), never run:
// uses of the API as a TypeScript program would write them. Each line after
// an expect-error directive must fail to type-check, or tsc reports it.

import { Admission, Client, ErrorCode, Profile, Provider, SchemaError, status } from 'toolgate';
import type { CallResult, Finding, StreamEvent, ToolResult, ToolsetResult, ToolsListDocument, ValidationResult } from 'toolgate';

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
  for await (const r of client.validateStream(events, { tools: { t: { type: 'object' } } })) {
    const callResult: CallResult = r;
    console.log(callResult.early, callResult.bytes + 1);
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
  await client.compileToolset('{"tools": []}');
  await client.compileToolset({ jsonrpc: '2.0', id: 1, result: list });
  await client.compileToolset(new Map([['t', '{"type": "object"}']]));
  await client.compileToolset({ t: { type: 'object' } });

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
  // @ts-expect-error: an output stream takes its schema
  client.validateOutputStream(['{}']);
}

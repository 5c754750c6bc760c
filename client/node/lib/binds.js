// The bind messages that open a stream: schemas inline, so that a stream
// is validated on whichever replica it reaches.
//
// A stream helper never binds a tool by handle unless the caller asks: a
// handle is held only by the replicas that compiled it, and behind a load
// balancer a stream may reach any other. Each tool's CompileSchemaRequest
// travels in StreamBind.schemas and the output schema in
// StreamBind.output_schema; the replica compiles them, or finds them
// compiled (handles are content addresses), before the first event.

import { describe } from './enums.js';
import { checkText, isPlainObject } from './json.js';

/**
 * The most schema bytes (tool names, schema texts and resources, in UTF-8)
 * that one bind message carries, so that a large toolset bound inline stays
 * far below a server's message limit (4 MiB by default); more schemas go
 * in further binds. A single schema larger than this goes alone in its own
 * bind.
 */
export const MAX_BIND_BYTES = 1 << 20;

/**
 * Returns the ValidateStreamRequests that bind a stream, in order. `tools`
 * (a plain object from tool name to CompileSchemaRequest) is bound inline,
 * in binds of at most MAX_BIND_BYTES each, in the order given; `handles`
 * (tool name to handle) is bound by handle in one further bind; `output`, a
 * CompileSchemaRequest, is bound to the message output (with
 * `stripCodeFence`) in the first bind. Default none of them; nothing to
 * bind gives no request.
 *
 * Throws a TypeError for `handles` that is not a plain object of strings,
 * for a tool name with a lone surrogate (see checkText), and for a name in
 * both `tools` and `handles`, which would leave the schema of its calls to
 * a rule of the server's.
 */
export function bindRequests({ tools = {}, handles = {}, output, stripCodeFence = false } = {}) {
  if (!isPlainObject(handles) || !Object.values(handles).every((h) => typeof h === 'string')) {
    throw new TypeError(`handles must be a plain object from tool name to handle (a string); got ${describe(handles)}`);
  }
  for (const name of [...Object.keys(tools), ...Object.keys(handles)]) {
    checkText(name, 'a tool name');
  }
  const both = Object.keys(tools).filter((name) => Object.hasOwn(handles, name));
  if (both.length > 0) {
    throw new TypeError(`tools and handles both name ${both.map((n) => JSON.stringify(n)).join(', ')}: bind each tool one way`);
  }
  const binds = [];
  if (output !== undefined) {
    binds.push({ output_schema: output, strip_code_fence: stripCodeFence });
  }
  let size = MAX_BIND_BYTES; // no bind of schemas is open yet
  for (const [name, request] of Object.entries(tools)) {
    const n = byteLength(name) + requestBytes(request);
    if (size + n > MAX_BIND_BYTES) {
      binds.push({ schemas: {} });
      size = 0;
    }
    // Defined, not assigned: a tool named __proto__ is a key like any other.
    Object.defineProperty(binds.at(-1).schemas, name, { value: request, enumerable: true, writable: true, configurable: true });
    size += n;
  }
  if (Object.keys(handles).length > 0) {
    binds.push({ tools: { ...handles } });
  }
  return binds.map((bind) => ({ bind }));
}

/** The UTF-8 bytes a CompileSchemaRequest's texts take: its schema and resources. */
function requestBytes(request) {
  let n = byteLength(request.schema_json);
  for (const [uri, text] of Object.entries(request.resources)) {
    n += byteLength(uri) + byteLength(text);
  }
  return n;
}

function byteLength(text) {
  return Buffer.byteLength(text, 'utf8');
}

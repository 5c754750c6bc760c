// The Client: one toolgate ValidationService, one method per RPC.

import * as grpc from '@grpc/grpc-js';

import { ValidationServiceClient } from './api.js';
import { bindRequests } from './binds.js';
import { checkName, describe, Profile } from './enums.js';
import { isPlainObject } from './json.js';
import { CALL_OPTIONS, checkFlag, checkNoOthers, checkSignal, compileFields, compileRequest, toolsetRequest, validateRequest } from './messages.js';
import { fromMessage } from './results.js';
import { ResultStream } from './stream.js';
import { Validator } from './validator.js';

/**
 * A call or stream on a Client that was closed. Shaped as a grpc-js
 * ServiceError, as the calls that close() cancels fail: `code` is
 * status.CANCELLED (as the Go client's calls after Close are), `details`
 * says the Client is closed, and `metadata` is empty.
 */
export class ClientClosedError extends Error {
  constructor() {
    const details = 'the Client is closed';
    super(`${grpc.status.CANCELLED} CANCELLED: ${details}`);
    this.name = 'ClientClosedError';
    this.code = grpc.status.CANCELLED;
    this.details = details;
    this.metadata = new grpc.Metadata();
  }
}

// What an authorization value can carry, as the server's --token-file
// reads it: printable ASCII, white space around it trimmed.
const TOKEN = /^[!-~](?:[ -~]*[!-~])?$/;

/**
 * Throws a TypeError, which never holds the token (a secret), unless
 * `token` is undefined or a non-empty string that can travel in an
 * authorization value.
 */
function checkToken(token) {
  if (token === undefined) {
    return;
  }
  if (typeof token !== 'string' || token === '') {
    throw new TypeError('token must be a non-empty string');
  }
  if (!TOKEN.test(token)) {
    let at = token.search(/[^ -~]/);
    if (at < 0) {
      at = token.startsWith(' ') ? 0 : token.length - 1; // a space at either end
    }
    const unit = `U+${token.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new TypeError(
      `token must be printable ASCII without white space at either end, as an authorization header carries it; it holds ${unit} at index ${at} of ${token.length}` +
        ' (a token read from a file may end with a newline: trim it)',
    );
  }
}

/**
 * Calls one toolgate ValidationService.
 *
 * Schema and argument problems are answers (`valid` false, `code` and
 * `errors` set), never rejections. A failed call rejects with the grpc-js
 * ServiceError it is: `err.code` is `status.NOT_FOUND` for a handle the
 * replica does not hold (a Validator recovers from it), UNAUTHENTICATED,
 * INVALID_ARGUMENT, UNAVAILABLE and so on, and CANCELLED once close() was
 * called (a ClientClosedError, of the same shape, for a call made after).
 */
export class Client {
  #metadata; // the Metadata every call sends (a clone of it): the token, built and checked once
  #closed = false;
  #inFlight = new Set(); // calls and streams close() cancels

  /**
   * Opens a channel to `target` ("host:port", or any gRPC target such as
   * "dns:///toolgate.svc:50051"). The channel uses TLS verified against the
   * system's roots unless `insecure` (plaintext, as a local toolgate listens
   * by default) or `credentials` (grpc-js ChannelCredentials, for a private
   * CA or mTLS) says otherwise. `token` sends "authorization: Bearer
   * <token>" with every call, on plaintext channels too: use it without TLS
   * only on a loopback or trusted network. `clientOptions` are grpc-js
   * client options (channel arguments such as 'grpc.keepalive_time_ms',
   * interceptors, channelOverride); default none.
   *
   * Connecting is lazy: an unreachable server fails the first call with
   * UNAVAILABLE. Throws a TypeError (which does not repeat the token) for
   * a token that is empty, or that an authorization header cannot carry
   * as the server compares it: anything but printable ASCII (a newline
   * left by reading a file, say), or white space at either end; and for
   * `insecure` together with `credentials`. Call close() when done.
   */
  constructor(target, { insecure = false, credentials, token, clientOptions } = {}) {
    checkToken(token);
    if (insecure && credentials !== undefined) {
      throw new TypeError('insecure and credentials exclude each other');
    }
    const channelCredentials = credentials ?? (insecure ? grpc.credentials.createInsecure() : grpc.credentials.createSsl());
    /** The generated grpc-js client, for what this class does not wrap. */
    this.stub = new ValidationServiceClient(target, channelCredentials, clientOptions);
    this.#metadata = new grpc.Metadata();
    if (token !== undefined) {
      this.#metadata.set('authorization', `Bearer ${token}`); // checkToken made sure it cannot throw (its message would hold the token)
    }
  }

  /**
   * Closes the channel; calls in flight fail with CANCELLED, and open
   * streams end (their events are returned), as grpc-js's own close()
   * alone would not. Later calls reject, and later streams throw when
   * iterated, with a ClientClosedError (CANCELLED). Idempotent.
   */
  close() {
    this.#closed = true;
    for (const call of this.#inFlight) {
      call.cancel();
    }
    this.#inFlight.clear();
    this.stub.close();
  }

  /**
   * Tracks `call` (a grpc-js call, or anything with cancel()) until
   * `untrack` is called, so that close() cancels it; shared with
   * ResultStream.
   */
  track(call) {
    this.#inFlight.add(call);
    return () => this.#inFlight.delete(call);
  }

  /**
   * Compiles `schema` (JSON text or a plain object) and resolves to its
   * CompileResult. Options: `profile` (default the tool input profile),
   * and for PROFILE_JSON_SCHEMA `resources` (URI to schema document, JSON
   * text or a plain object; default none) and `formatAssertion` (default
   * false); `deadline` (a Date or milliseconds since the epoch) bounds the
   * call, default none, and aborting `signal` (an AbortSignal) cancels it:
   * it rejects with CANCELLED, as close() makes it. A schema that does not compile is an answer: no
   * handle, `code` and every finding set. Rejects with a TypeError for a
   * profile, schema, resource or flag that cannot be sent as meant.
   */
  async compile(schema, { deadline, signal, ...options } = {}) {
    return this.callCompile(compileRequest(schema, options, CALL_OPTIONS), { deadline, signal });
  }

  /**
   * Compiles every tool of `tools` in one CompileToolset call and resolves
   * to its ToolsetResult: `tools`, one ToolResult per tool in input order
   * (its handle, or its code and every finding: an unsupported keyword
   * with its schema path; keyword "name" for a missing or repeated name,
   * "inputSchema" for a missing schema), `bind` (tool name to handle of the
   * tools bound) and `admitted`.
   *
   * `tools` is an MCP tools/list result or tools by name:
   * - JSON text (a string or UTF-8 bytes) is a tools/list result,
   *   {"tools": [{"name", "inputSchema", ...}, ...]}, or the whole JSON-RPC
   *   response carrying it in "result"; it is sent unchanged, so numbers
   *   stay exact.
   * - A plain object is such a result, or response, written as JSON text
   *   as schemas are, when it has a "tools" array (no schema is an array),
   *   a "jsonrpc" member, or a "result" with a "tools" array: by the shape
   *   of its members, as the Python client decides.
   * - A Map, or any other plain object (as validateStream's `tools`), maps
   *   tool names to input schemas (JSON text or plain objects), in its
   *   order; so tools named "tools" or "result" need no Map. Put a tool
   *   named "jsonrpc" in a Map.
   *
   * Options are compile()'s, for every tool, and `admission`:
   * Admission.QUARANTINE (the default) binds every tool that compiled and
   * leaves the others out; Admission.STRICT binds nothing, `admitted`
   * false, unless every tool compiled (each compiled tool still has its
   * handle). A tool whose name occurs more than once is never bound.
   * `bind` is ready for validateStream's `handles` (on a replica that holds
   * the handles: this one) and its handles for validate().
   *
   * A tool that does not compile is an answer. Rejects with a TypeError for
   * `tools`, a schema, option or resource that cannot be sent as meant, and
   * with INVALID_ARGUMENT for a tools/list that is not one (not JSON, no
   * "tools" array).
   */
  async compileToolset(tools, { deadline, signal, ...options } = {}) {
    return this.#unary('CompileToolset', toolsetRequest(tools, options, CALL_OPTIONS), { deadline, signal }, 'CompileToolsetResponse');
  }

  /**
   * Validates `args` (JSON text or a plain object; "" means {}) against the
   * schema held under `handle`, and resolves to its ValidationResult.
   * Invalid arguments are an answer. Does not retry: a replica that does
   * not hold `handle` rejects with NOT_FOUND (a Validator sends the schema
   * again). `deadline` and `signal` as in compile.
   */
  async validate(handle, args, { deadline, signal, ...others } = {}) {
    checkNoOthers(others, CALL_OPTIONS);
    return this.callValidate(validateRequest(args, { handle }), { deadline, signal });
  }

  /**
   * Compiles `schema` (or finds it compiled) and validates `args` against
   * it in one Validate call, with the schema inline; options as in
   * compile(). The result's `handle` names the compiled schema for later
   * calls; a schema that does not compile is answered with its findings
   * (`valid` false, `handle` ""). Never NOT_FOUND.
   */
  async validateSchema(schema, args, { deadline, signal, ...options } = {}) {
    return this.callValidate(validateRequest(args, { inline: compileRequest(schema, options, CALL_OPTIONS) }), { deadline, signal });
  }

  /** Returns a new Validator calling through this Client, remembering no schemas yet. */
  validator() {
    return new Validator(this);
  }

  /**
   * Validates streamed tool calls while they are generated: returns a
   * ResultStream of CallResults, which opens the stream when iterated.
   * `events` (an iterable or async iterable) yields raw provider events
   * (strings: the payload of one server-sent event's data: lines, with
   * `provider` naming the API) or explicit {start: {call_id, tool_name}},
   * {delta: {call_id, fragment}} and {end: {call_id}} events (and, in
   * validateOutputStream, {answer: {call_id}}).
   *
   * `tools` maps each tool name the model may call to its input schema
   * (JSON text or a plain object), compiled with `profile`, `resources` and
   * `formatAssertion` as in compile(); default none. The schemas travel
   * inline with the stream (StreamBind.schemas), so whichever replica the
   * stream reaches compiles them (or finds them compiled) and validates
   * every call: no compile call first, and no NOT_FOUND. A schema that does
   * not compile ends the stream with INVALID_ARGUMENT naming the tool and
   * its first finding (compile() it for every finding).
   *
   * `handles` maps tool names to handles from compile() (or the `bind` of
   * compileToolset()), bound by handle; default none. Only the replicas
   * that compiled a handle hold it: on any other, each call of its tool
   * gets a result with code ERROR_CODE_NOT_FOUND (keyword "handle",
   * `early`), not validated. Prefer `tools`. `deadline` bounds the whole
   * stream; `signal` (an AbortSignal) closes it. Throws a TypeError at once
   * for a bad option, and for a name in both `tools` and `handles`.
   */
  validateStream(events, { tools = {}, handles, provider, deadline, signal, ...options } = {}) {
    const binds = bindRequests({ tools: toolRequests(tools, options, STREAM_OPTIONS), handles });
    return new ResultStream(this, events, { binds, provider, deadline, signal });
  }

  /**
   * Validates a provider's structured output while it is generated: returns
   * a ResultStream of each answer's CallResult. The answer is the message
   * text (OpenAI response_format, Responses text.format, Anthropic
   * structured outputs, Gemini responseSchema, Bedrock and Cohere JSON
   * text): the text of each choice, candidate or message is one JSON
   * document, checked against `schema` (JSON text or a plain object),
   * compiled with `profile` (default PROFILE_OUTPUT_BINDABLE, the profile
   * of LLM structured output), `resources` and `formatAssertion` as in
   * compile(). Its result has `call_id` "output/<n>" (n the choice or
   * candidate index, 0 when there is one, or an OpenAI Responses message's
   * output_index, 1 after a reasoning item) and an empty `tool_name`, and
   * comes at the first byte no valid answer could follow (`early`) or when
   * the answer ends.
   *
   * The schema travels inline (StreamBind.output_schema), so any replica
   * validates it; one that does not compile ends the stream with
   * INVALID_ARGUMENT. `stripCodeFence` (default false) accepts an answer
   * wrapped in one Markdown code fence (``` or ```json, on lines of their
   * own), whose bytes are skipped; otherwise a fence, like any text before
   * the JSON, is a finding with keyword "json" at its first byte. A refusal
   * is a result whose first finding has keyword "refusal"; an answer cut
   * off by the token limit is incomplete (keyword "json"); a model that
   * writes no text (it only calls tools) gives no output result.
   *
   * Tool calls in the stream are results too, for a model that may either
   * answer or call a tool (OpenAI response_format with tools, say): each is
   * validated against its tool's schema, bound as validateStream binds it,
   * by `tools` (tool name to input schema, inline: any replica validates
   * it; one that does not compile ends the stream with INVALID_ARGUMENT
   * naming the tool) or by `handles` (tool name to handle, held only by the
   * replicas that compiled it); default none. A call of a tool bound
   * neither way gets keyword "tool_name". Tool schemas are compiled with
   * `toolProfile` (default PROFILE_UNSPECIFIED, the tool input profile, as
   * in validateStream); `resources` and `formatAssertion` apply to the
   * output schema and every tool schema alike. `events`, `provider`,
   * `deadline` and `signal` are as for validateStream.
   *
   * An answer read from the provider by the caller may come as plain
   * deltas instead of raw events: {answer: {call_id}} starts it, its
   * {delta: {call_id, fragment}}s carry the message text and {end:
   * {call_id}} ends it; it is held to the schema and stripCodeFence as a
   * raw answer is, and its result has that call_id and an empty
   * `tool_name`. Throws a TypeError at once for a bad option, and for a
   * name in both `tools` and `handles`.
   */
  validateOutputStream(events, schema, { stripCodeFence = false, tools = {}, handles, toolProfile, provider, deadline, signal, ...options } = {}) {
    const { profile, ...shared } = options; // the profile is the output's; toolProfile the tools'
    const output = compileRequest(schema, { ...shared, profile: profile ?? Profile.OUTPUT_BINDABLE }, OUTPUT_STREAM_OPTIONS);
    const binds = bindRequests({
      output,
      stripCodeFence: checkFlag(stripCodeFence, 'stripCodeFence'),
      tools: toolRequests(tools, { ...shared, profile: toolProfile }, OUTPUT_STREAM_OPTIONS),
      handles,
    });
    return new ResultStream(this, events, { binds, provider, deadline, signal });
  }

  /** Sends a prepared CompileSchemaRequest with `call` ({deadline, signal}); shared with Validator. */
  callCompile(request, call) {
    return this.#unary('CompileSchema', request, call, 'CompileSchemaResponse');
  }

  /** Sends a prepared ValidateRequest with `call` ({deadline, signal}); shared with Validator. */
  callValidate(request, call) {
    return this.#unary('Validate', request, call, 'ValidateResponse');
  }

  /** Metadata for one call: this Client's token, if any. */
  metadata() {
    return this.#metadata.clone();
  }

  /** Throws a ClientClosedError once close() was called; shared with ResultStream. */
  checkOpen() {
    if (this.#closed) {
      throw new ClientClosedError();
    }
  }

  /**
   * Makes one unary call. `deadline` bounds it; aborting `signal` (an
   * AbortSignal, already aborted too) cancels it, so that it rejects with
   * CANCELLED as close() makes it.
   */
  #unary(method, request, { deadline, signal } = {}, responseType) {
    checkSignal(signal);
    return new Promise((resolve, reject) => {
      this.checkOpen(); // a rejection: grpc-js's own refusal ("Channel has been shut down") has no code
      let untrack = () => {};
      const cancel = () => call.cancel();
      const call = this.stub[method](request, this.metadata(), { deadline }, (err, response) => {
        untrack();
        signal?.removeEventListener('abort', cancel);
        if (err) {
          reject(err);
          return;
        }
        try {
          resolve(fromMessage(responseType, response));
        } catch (conversion) {
          reject(conversion); // thrown here it would escape grpc-js's callback
        }
      });
      untrack = this.track(call);
      if (signal?.aborted) {
        cancel();
      } else {
        signal?.addEventListener('abort', cancel, { once: true });
      }
    });
  }
}

/**
 * The CompileSchemaRequest of each tool of `tools` (a plain object from
 * tool name to schema, JSON text or a plain object), compiled with
 * `options` as in compile(), for the stream helpers' `tools`. The options
 * are checked even when there are no tools. Throws a TypeError for tools
 * that are not a plain object and for what compileRequest refuses (`also`
 * as there).
 */
function toolRequests(tools, options, also) {
  compileFields(options, also);
  if (!isPlainObject(tools)) {
    throw new TypeError(`tools must be a plain object from tool name to schema; got ${describe(tools)}`);
  }
  return Object.fromEntries(Object.entries(tools).map(([name, schema]) => [name, compileRequest(schema, options, also)]));
}

// The options of the stream helpers besides compile()'s, named by the
// TypeError of an unknown one.
const STREAM_OPTIONS = ['tools', 'handles', 'provider', 'deadline', 'signal'];
const OUTPUT_STREAM_OPTIONS = ['stripCodeFence', 'toolProfile', ...STREAM_OPTIONS];

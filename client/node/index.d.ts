// Types of the toolgate Node client. Hand-written over the JavaScript in
// lib/: no name here shadows a global (a finding is a Finding, not an
// Error), and test/types.test.ts is type-checked by `npm run typecheck`.

import type { ChannelCredentials, ClientOptions, Metadata, ServiceError, status as grpcStatus } from '@grpc/grpc-js';
import type { Options as LoaderOptions, PackageDefinition } from '@grpc/proto-loader';

/** gRPC status codes (`err.code` of a failed call), from @grpc/grpc-js. */
export declare const status: typeof grpcStatus;

/** The JSON Schema subset a schema is compiled under. */
export declare const Profile: {
  /** Not set; the server treats it exactly as TOOL_INPUT. The default. */
  readonly UNSPECIFIED: 'PROFILE_UNSPECIFIED';
  /** The strict tool input subset. */
  readonly TOOL_INPUT: 'PROFILE_TOOL_INPUT';
  /** The bindable output subset for LLM structured output. */
  readonly OUTPUT_BINDABLE: 'PROFILE_OUTPUT_BINDABLE';
  /** Full JSON Schema (2020-12, 2019-09, draft-07, -06, -04). */
  readonly JSON_SCHEMA: 'PROFILE_JSON_SCHEMA';
};
/** A Profile name. */
export type Profile = (typeof Profile)[keyof typeof Profile];

/** What CompileToolset binds when some tools do not compile. */
export declare const Admission: {
  /** Not set; the server treats it exactly as QUARANTINE. The default. */
  readonly UNSPECIFIED: 'ADMISSION_UNSPECIFIED';
  /** Bind every tool that compiled; the others stay unbound. */
  readonly QUARANTINE: 'ADMISSION_QUARANTINE';
  /** Bind nothing unless every tool compiled (`admitted` false otherwise). */
  readonly STRICT: 'ADMISSION_STRICT';
};
/** An Admission name. */
export type Admission = (typeof Admission)[keyof typeof Admission];

/** The classification of a finding, and of a result as a whole. */
export declare const ErrorCode: {
  /** No error: a result has it exactly when it has no errors. */
  readonly UNSPECIFIED: 'ERROR_CODE_UNSPECIFIED';
  /** The schema uses something the profile cannot honour. */
  readonly UNSUPPORTED_CAPABILITY: 'ERROR_CODE_UNSUPPORTED_CAPABILITY';
  /** A malformed schema, or arguments that do not satisfy it. */
  readonly VALIDATION: 'ERROR_CODE_VALIDATION';
  /**
   * A stream call that was not validated: the handle its tool is bound to
   * is not held by the replica serving the stream (keyword "handle"). Only
   * tools bound by handle get it; bind schemas inline.
   */
  readonly NOT_FOUND: 'ERROR_CODE_NOT_FOUND';
};
/**
 * An ErrorCode name; a code this client's proto does not know (from a
 * newer server) arrives as its decimal string.
 */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | `${number}`;

/** The model provider's streaming API that raw stream events come from. */
export declare const Provider: {
  /** Not set; the server refuses it with INVALID_ARGUMENT. */
  readonly UNSPECIFIED: 'PROVIDER_UNSPECIFIED';
  /** OpenAI Chat Completions chunks, and OpenAI-compatible servers. */
  readonly OPENAI_CHAT: 'PROVIDER_OPENAI_CHAT';
  /** OpenAI Responses API events. */
  readonly OPENAI_RESPONSES: 'PROVIDER_OPENAI_RESPONSES';
  /** Anthropic Messages stream events. */
  readonly ANTHROPIC: 'PROVIDER_ANTHROPIC';
  /** Google Gemini streamGenerateContent responses. */
  readonly GEMINI: 'PROVIDER_GEMINI';
  /** Amazon Bedrock ConverseStream events, as JSON. */
  readonly BEDROCK: 'PROVIDER_BEDROCK';
  /** Cohere v2 chat stream events. */
  readonly COHERE: 'PROVIDER_COHERE';
};
/** A Provider name. */
export type Provider = (typeof Provider)[keyof typeof Provider];

/** A JSON value that can be written exactly (no undefined, NaN, Date, ...); readonly (`as const`) too. */
export type JSONValue = null | boolean | number | string | readonly JSONValue[] | { readonly [key: string]: JSONValue };

/**
 * `T` member by member, with `never` in place of what JSON cannot hold or
 * JSON.stringify would drop or rewrite: undefined, functions, symbols (as
 * values or keys), bigint, and objects with methods (Date, Map, typed
 * arrays, class instances). Unlike JSONValue, whose index signature an
 * interface does not have, it checks an interface by its members. A
 * member typed unknown (or any), as in an MCP SDK tool's inputSchema, is
 * left to the runtime, which refuses with a TypeError what JSON cannot
 * hold, and what no type tells apart: NaN, a class instance without
 * methods, an optional member set to undefined.
 */
export type JSONShape<T> = unknown extends T
  ? T
  : T extends null | boolean | number | string
    ? T
    : T extends (...args: never) => unknown
      ? never
      : T extends readonly (infer E)[]
        ? readonly JSONShape<E>[]
        : T extends object
          ? { [K in keyof T]: K extends symbol ? never : JSONShape<T[K]> }
          : never;

/**
 * A schema or arguments: JSON text (sent unchanged; use it for numbers a
 * double cannot hold), UTF-8 bytes, or a plain object or array written by
 * JSON.stringify. Never sent as a protobuf Struct. A method that takes one
 * infers `T` from the value given, so a value of an interface type or an
 * `as const` one is accepted when each member is JSON (see JSONShape);
 * `JSONInput` alone is any such document.
 */
export type JSONInput<T = string | Uint8Array | readonly JSONValue[] | { readonly [key: string]: JSONValue }> =
  T extends string | Uint8Array ? T : T extends object ? T & JSONShape<T> : never;

/** Names to JSON input (tools to schemas, URIs to resources) in an object, not an array, each checked as JSONInput. */
export type JSONInputs<T = Record<string, JSONInput>> = T extends readonly unknown[] ? never : { [K in keyof T]: JSONInput<T[K]> };

/** One finding about a schema or about arguments. */
export interface Finding {
  /** Never ERROR_CODE_UNSPECIFIED. */
  readonly code: ErrorCode;
  /** The rule: a JSON Schema keyword, or a pseudo-keyword such as "json". */
  readonly keyword: string;
  /** RFC 6901 pointer into the schema ("" when no schema location applies). */
  readonly schema_path: string;
  /** RFC 6901 pointer into the arguments ("" for the root and for schema findings). */
  readonly instance_path: string;
  /** One sentence fit to hand back to the model; do not parse it. */
  readonly message: string;
  /** Byte offset into the arguments where it was detected (0 for schema findings). */
  readonly offset: number;
}

/** The outcome of compiling one schema. */
export interface CompileResult {
  /** The compiled schema's content address; "" unless it compiled. */
  readonly handle: string;
  /** ERROR_CODE_UNSPECIFIED when it compiled. */
  readonly code: ErrorCode;
  /** Every finding, up to the server's cap; empty when it compiled. */
  readonly errors: readonly Finding[];
  /** Keywords accepted but not enforced; they do not prevent compilation. */
  readonly warnings: readonly Finding[];
  /** True when the server had more findings than it sent. */
  readonly errors_truncated: boolean;
  /** True when the server had more warnings than it sent. */
  readonly warnings_truncated: boolean;
}

/**
 * The outcome for one tool of a toolset: a CompileResult for its schema,
 * with the tool's name and findings about the tool itself.
 */
export interface ToolResult extends CompileResult {
  /** The tool's name as given ("" when it had none). */
  readonly name: string;
  /** The handle of the tool's compiled schema; "" unless `code` is ERROR_CODE_UNSPECIFIED. */
  readonly handle: string;
  /**
   * ERROR_CODE_UNSPECIFIED when the tool can be enforced; UNSUPPORTED_CAPABILITY
   * for a schema outside the profile; VALIDATION for a malformed schema or
   * tool (no name, a repeated name, no inputSchema).
   */
  readonly code: ErrorCode;
  /**
   * Every finding, up to the server's cap: schema paths point into the
   * tool's schema; keyword "name" or "inputSchema" (empty schema_path) is
   * about the tool itself.
   */
  readonly errors: readonly Finding[];
}

/** The outcome of compiling a toolset. */
export interface ToolsetResult {
  /** One result per tool, in input order. */
  readonly tools: readonly ToolResult[];
  /**
   * Tool name to handle of each tool bound: those that compiled, but no
   * repeated name, and none at all under ADMISSION_STRICT unless every tool
   * compiled. Ready for StreamOptions.handles.
   */
  readonly bind: Readonly<Record<string, string>>;
  /** False only under ADMISSION_STRICT when some tool did not compile (`bind` is then empty). */
  readonly admitted: boolean;
  /**
   * True when the tools/list result is one page of a longer list (it has a
   * non-empty `nextCursor`): only that page's tools are here. Fetch every
   * page and send their tools together to bind them all.
   */
  readonly more_pages: boolean;
}

/** The verdict on one set of arguments. */
export interface ValidationResult {
  /** True exactly when the schema compiled and the arguments satisfy it. */
  readonly valid: boolean;
  /** ERROR_CODE_UNSPECIFIED when valid. */
  readonly code: ErrorCode;
  /** Every violation in byte order (schema findings if an inline schema did not compile). */
  readonly errors: readonly Finding[];
  /** The handle the arguments were checked against ("" if an inline schema did not compile). */
  readonly handle: string;
  /** True when the server had more findings than it sent. */
  readonly errors_truncated: boolean;
}

/** The verdict on one streamed tool call, sent as soon as it is known. */
export interface CallResult {
  /** The call's id: the start event's, or the provider's tool-call id. */
  readonly call_id: string;
  /** The call's tool name ("" when nothing named it). */
  readonly tool_name: string;
  /** True exactly when the call's complete arguments satisfy its schema. */
  readonly valid: boolean;
  /**
   * ERROR_CODE_UNSPECIFIED when valid; ERROR_CODE_NOT_FOUND (keyword
   * "handle") when the call was not validated at all, because its tool was
   * bound by a handle that the replica serving the stream does not hold.
   */
  readonly code: ErrorCode;
  /** The findings made at the byte that decided the verdict. */
  readonly errors: readonly Finding[];
  /** True when rejected before the call ended: stop the generation. */
  readonly early: boolean;
  /** Argument bytes received when the verdict was made. */
  readonly bytes: number;
  /** True when the server had more findings than it sent. */
  readonly errors_truncated: boolean;
}

/** What a schema is compiled with; `R` is inferred from `resources`. */
export interface SchemaOptions<R = Record<string, JSONInput>> {
  /** Default PROFILE_UNSPECIFIED, the tool input profile. */
  profile?: Profile;
  /**
   * PROFILE_JSON_SCHEMA only: absolute URI (as `$ref` and `$schema` name
   * it) to a further schema document. Default none.
   */
  resources?: JSONInputs<R>;
  /** PROFILE_JSON_SCHEMA only: assert `format`. Default false. */
  formatAssertion?: boolean;
}

/** Options of Client.compile and the schema-taking methods. */
export interface CompileOptions<R = Record<string, JSONInput>> extends SchemaOptions<R>, CallOptions {}

/**
 * An MCP tools/list result, {"tools": [...]}, or the whole JSON-RPC
 * response carrying it in "result", as a plain object.
 */
export type ToolsListDocument =
  | { readonly tools: readonly JSONValue[]; readonly [key: string]: JSONValue }
  | { readonly jsonrpc: JSONValue; readonly [key: string]: JSONValue }
  | { readonly result: { readonly tools: readonly JSONValue[]; readonly [key: string]: JSONValue }; readonly [key: string]: JSONValue };

/**
 * The tools of Client.compileToolset: a tools/list document as JSON text
 * (sent unchanged) or as a plain object with a "tools" array, a "jsonrpc"
 * member or a "result" with a "tools" array; or tool name to input schema,
 * as a Map or any other plain object (a tool named "jsonrpc" goes in a
 * Map). `T` is inferred: the schemas (and a document's members) are
 * checked as JSONInput.
 */
export type ToolsetInput<T = Record<string, JSONInput>> =
  | string
  | Uint8Array
  | ToolsListDocument
  | ReadonlyMap<string, JSONInput<T>>
  | (T extends { readonly tools: readonly unknown[] } | { readonly jsonrpc: unknown } | { readonly result: { readonly tools: readonly unknown[] } } ? JSONInput<T> : JSONInputs<T>);

/** Options of Client.compileToolset: every tool is compiled with the same schema options. */
export interface ToolsetOptions<R = Record<string, JSONInput>> extends CompileOptions<R> {
  /**
   * Default ADMISSION_UNSPECIFIED, which is QUARANTINE: bind every tool
   * that compiled. STRICT binds nothing unless every tool compiled.
   */
  admission?: Admission;
}

/** Options of the calls that take no schema. */
export interface CallOptions {
  /** The call's deadline: a Date or milliseconds since the epoch. Default none. */
  deadline?: Date | number;
  /** Aborting it cancels the call, which rejects with CANCELLED. */
  signal?: AbortSignal;
}

/** Options of the Client constructor. */
export interface ConnectOptions {
  /** Plaintext, as a local toolgate listens by default. Default false: TLS. */
  insecure?: boolean;
  /** Channel credentials (a private CA, mTLS); excludes `insecure`. */
  credentials?: ChannelCredentials;
  /**
   * Sends "authorization: Bearer <token>" with every call. Must be printable
   * ASCII, not empty and without white space at either end (trim a token
   * read from a file): otherwise the constructor throws a TypeError, which
   * does not repeat it.
   */
  token?: string;
  /** grpc-js client options: channel arguments, interceptors, channelOverride. */
  clientOptions?: ClientOptions;
}

/**
 * An explicit stream event: a call's start, one fragment of its arguments,
 * or its end; the start of the stream's structured-output answer sent as
 * plain deltas (`answer`: its deltas are the message text, checked against
 * validateOutputStream's schema); or a raw provider event with its name
 * (the server-sent event's `event:` field, which the server checks
 * against the data).
 */
export type StreamEvent =
  | { named: { name: string; data: string | Uint8Array } }
  | { start: { call_id: string; tool_name: string } }
  | { answer: { call_id: string } }
  | { delta: { call_id: string; fragment: string } }
  | { end: { call_id: string } };

/** What every stream helper takes. */
export interface StreamBaseOptions {
  /** The API raw provider events come from; required for them. */
  provider?: Provider;
  /** The whole stream's deadline: a Date or milliseconds since the epoch. Default none. */
  deadline?: Date | number;
  /**
   * Aborting it closes the stream, as close() does, before or during the
   * iteration; listened to only while the stream is iterated.
   */
  signal?: AbortSignal;
}

/**
 * Options of Client.validateStream. The profile, resources and format
 * assertion apply to every schema of `tools`. `T` and `R` are inferred
 * from `tools` and `resources`.
 */
export interface StreamOptions<T = Record<string, JSONInput>, R = Record<string, JSONInput>> extends StreamBaseOptions, SchemaOptions<R> {
  /**
   * Tool name (as the model emits it) to its input schema, bound inline:
   * any replica validates its calls. Default none.
   */
  tools?: JSONInputs<T>;
  /**
   * Tool name to a handle from compile() (or compileToolset()'s `bind`),
   * bound by handle: on a replica that does not hold it, its calls get
   * results with code ERROR_CODE_NOT_FOUND. Default none; a name may not
   * be in both.
   */
  handles?: Record<string, string>;
}

/**
 * Options of Client.validateOutputStream. The profile (default
 * PROFILE_OUTPUT_BINDABLE) applies to the output schema, `toolProfile` to
 * the schemas of `tools`; the resources and format assertion apply to
 * both. `T` and `R` are inferred from `tools` and `resources`.
 */
export interface OutputStreamOptions<T = Record<string, JSONInput>, R = Record<string, JSONInput>> extends StreamBaseOptions, SchemaOptions<R> {
  /** Accept an answer wrapped in one Markdown code fence. Default false. */
  stripCodeFence?: boolean;
  /**
   * Tool name (as the model emits it) to its input schema, bound inline,
   * for the tool calls in the stream: any replica validates them. Default
   * none: a tool call gets keyword "tool_name".
   */
  tools?: JSONInputs<T>;
  /** Tool name to a handle, bound by handle, as StreamOptions.handles. Default none; a name may not be in both. */
  handles?: Record<string, string>;
  /** The profile the schemas of `tools` compile under. Default PROFILE_UNSPECIFIED, the tool input profile. */
  toolProfile?: Profile;
}

/** A failed call: a grpc-js ServiceError, with `code` one of `status`. */
export type CallError = ServiceError;

/**
 * Calls one toolgate ValidationService. The type parameters of its methods
 * are inferred from the schemas, arguments, tools and resources given (see
 * JSONInput); they need not be written.
 */
export declare class Client {
  /** Opens a (lazy) channel to `target`: TLS unless `insecure` or `credentials` say otherwise. */
  constructor(target: string, options?: ConnectOptions);
  /** The generated grpc-js client, for what this class does not wrap. */
  readonly stub: import('@grpc/grpc-js').Client & Record<string, unknown>;
  /**
   * Closes the channel; calls in flight fail with CANCELLED, and later
   * calls and streams with a ClientClosedError (CANCELLED too). Idempotent.
   */
  close(): void;
  /** Compiles a schema; one that does not compile is an answer, not a rejection. */
  compile<S, R = Record<string, JSONInput>>(schema: JSONInput<S>, options?: CompileOptions<R>): Promise<CompileResult>;
  /**
   * Compiles every tool of a tools/list result or of a name to schema map;
   * `bind` holds the tools bound, per `admission`. Tools that do not
   * compile are answers, not rejections.
   */
  compileToolset<T, R = Record<string, JSONInput>>(tools: ToolsetInput<T>, options?: ToolsetOptions<R>): Promise<ToolsetResult>;
  /** Validates arguments by handle; a replica without it rejects with NOT_FOUND. */
  validate<A>(handle: string, args: JSONInput<A>, options?: CallOptions): Promise<ValidationResult>;
  /** Compiles (or finds) a schema and validates arguments in one call. */
  validateSchema<S, A, R = Record<string, JSONInput>>(schema: JSONInput<S>, args: JSONInput<A>, options?: CompileOptions<R>): Promise<ValidationResult>;
  /** A new Validator calling through this Client. */
  validator(): Validator;
  /** Validates streamed tool calls while they are generated, schemas bound inline; opens when iterated. */
  validateStream<T = Record<string, JSONInput>, R = Record<string, JSONInput>>(events: StreamEvents, options?: StreamOptions<T, R>): ResultStream;
  /** Validates streamed structured output (results "output/<n>"), the schema bound inline, and the tool calls beside it; opens when iterated. */
  validateOutputStream<S, T = Record<string, JSONInput>, R = Record<string, JSONInput>>(events: StreamEvents, schema: JSONInput<S>, options?: OutputStreamOptions<T, R>): ResultStream;
}

/** What a stream helper reads: raw provider events and explicit events, in any mix. */
export type StreamEvents = Iterable<string | Uint8Array | StreamEvent> | AsyncIterable<string | Uint8Array | StreamEvent>;

/** Validation by handle that re-sends a remembered schema once on NOT_FOUND. */
export declare class Validator {
  /** Compiles and remembers a schema; rejects with a SchemaError if it does not compile. */
  register<S, R = Record<string, JSONInput>>(schema: JSONInput<S>, options?: CompileOptions<R>): Promise<CompileResult>;
  /** Validates by handle, recovering once from NOT_FOUND for a registered handle. */
  validate<A>(handle: string, args: JSONInput<A>, options?: CallOptions): Promise<ValidationResult>;
  /** Validates against a schema: inline the first time, by handle afterwards. */
  validateSchema<S, A, R = Record<string, JSONInput>>(schema: JSONInput<S>, args: JSONInput<A>, options?: CompileOptions<R>): Promise<ValidationResult>;
  /** Forgets a handle; unknown handles are ignored. */
  forget(handle: string): void;
}

/** A schema given to Validator.register did not compile. */
export declare class SchemaError extends Error {
  constructor(result: CompileResult);
  /** The server's answer: its code and every finding. */
  readonly result: CompileResult;
}

/**
 * The CallResult of each call of one ValidateStream, as they arrive;
 * iterate once. The iteration throws the stream's failure after the
 * results that arrived before it: the events' own error, a TypeError for
 * an event that cannot be sent, the stream's grpc-js ServiceError, or a
 * StreamReceiptError when the stream ended with OK before the events, or
 * without the server's receipt for every request sent and every result
 * received.
 */
export declare class ResultStream implements AsyncIterable<CallResult> {
  /**
   * Ends the stream now, and its iteration: no further result is yielded,
   * not even one already received. Idempotent.
   */
  close(): void;
  [Symbol.asyncIterator](): AsyncGenerator<CallResult, void, undefined>;
}

/**
 * A ValidateStream ended with OK before the events ended, or without the
 * server's receipt (StreamEnd) counting every request the client sent,
 * binds included, and every result it received, or with a message after
 * the receipt: a proxy or a broken server may have ended it without
 * reading the events. Shaped as a grpc-js
 * ServiceError (`err.code` is status.INTERNAL), so it is also a CallError.
 */
export declare class StreamReceiptError extends Error implements ServiceError {
  constructor(details: string, metadata?: Metadata);
  /** Always status.INTERNAL. */
  readonly code: typeof grpcStatus.INTERNAL;
  /** What was wrong: an end before the events', no receipt, its counts against the client's, or a message after it. */
  readonly details: string;
  /** The stream's trailers; empty when its status had not arrived. */
  readonly metadata: Metadata;
}

/**
 * A call made, or a stream iterated, after its Client was closed. Shaped as
 * a grpc-js ServiceError (`err.code` is status.CANCELLED), so it is also a
 * CallError.
 */
export declare class ClientClosedError extends Error implements ServiceError {
  constructor();
  /** Always status.CANCELLED. */
  readonly code: typeof grpcStatus.CANCELLED;
  /** "the Client is closed". */
  readonly details: string;
  /** Always empty. */
  readonly metadata: Metadata;
}

/**
 * Returns a schema or arguments as exact JSON text; throws a TypeError for
 * what JSON cannot hold, and for a lone surrogate in text or in an
 * object's strings or keys (naming the member that holds it).
 */
export declare function jsonText<T>(value: JSONInput<T>, what: string): string;

/** The @grpc/proto-loader options this client loads the API with. */
export declare const LOADER_OPTIONS: Readonly<LoaderOptions>;

/** The loaded toolgate.v1 package definition. */
export declare const definition: PackageDefinition;

/** The generated grpc-js client constructor of toolgate.v1.ValidationService. */
export declare const ValidationServiceClient: import('@grpc/grpc-js').ServiceClientConstructor;

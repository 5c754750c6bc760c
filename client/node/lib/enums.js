// The API's enums as names. Members are the proto names, the spelling that
// grpcurl and the protobuf JSON mapping print, so results read the same in
// every language. Where the API takes an enum, any other value is a
// TypeError, never a silent 0.

/** The JSON Schema subset a schema is compiled under. */
export const Profile = Object.freeze({
  /** Not set; the server treats it exactly as TOOL_INPUT. The default. */
  UNSPECIFIED: 'PROFILE_UNSPECIFIED',
  /** The strict tool input subset. */
  TOOL_INPUT: 'PROFILE_TOOL_INPUT',
  /** The bindable output subset for LLM structured output. */
  OUTPUT_BINDABLE: 'PROFILE_OUTPUT_BINDABLE',
  /** Full JSON Schema (2020-12, 2019-09, draft-07, -06, -04). */
  JSON_SCHEMA: 'PROFILE_JSON_SCHEMA',
});

/** What CompileToolset binds when some tools do not compile. */
export const Admission = Object.freeze({
  /** Not set; the server treats it exactly as QUARANTINE. The default. */
  UNSPECIFIED: 'ADMISSION_UNSPECIFIED',
  /** Bind every tool that compiled; the others stay unbound. */
  QUARANTINE: 'ADMISSION_QUARANTINE',
  /** Bind nothing unless every tool compiled (`admitted` false otherwise). */
  STRICT: 'ADMISSION_STRICT',
});

/** The classification of a finding, and of a result as a whole. */
export const ErrorCode = Object.freeze({
  /** No error: a result has it exactly when it has no errors. */
  UNSPECIFIED: 'ERROR_CODE_UNSPECIFIED',
  /** The schema uses something the profile cannot honour. */
  UNSUPPORTED_CAPABILITY: 'ERROR_CODE_UNSUPPORTED_CAPABILITY',
  /** A malformed schema, or arguments that do not satisfy it. */
  VALIDATION: 'ERROR_CODE_VALIDATION',
  /**
   * A stream call that was not validated: the handle its tool is bound to
   * is not held by the replica serving the stream (keyword "handle"). Only
   * tools bound by handle get it; bind schemas inline.
   */
  NOT_FOUND: 'ERROR_CODE_NOT_FOUND',
});

/** The model provider's streaming API that raw stream events come from. */
export const Provider = Object.freeze({
  /** Not set; the server refuses it with INVALID_ARGUMENT. */
  UNSPECIFIED: 'PROVIDER_UNSPECIFIED',
  /** OpenAI Chat Completions chunks, and OpenAI-compatible servers. */
  OPENAI_CHAT: 'PROVIDER_OPENAI_CHAT',
  /** OpenAI Responses API events. */
  OPENAI_RESPONSES: 'PROVIDER_OPENAI_RESPONSES',
  /** Anthropic Messages stream events. */
  ANTHROPIC: 'PROVIDER_ANTHROPIC',
  /** Google Gemini streamGenerateContent responses. */
  GEMINI: 'PROVIDER_GEMINI',
  /** Amazon Bedrock ConverseStream events, as JSON. */
  BEDROCK: 'PROVIDER_BEDROCK',
  /** Cohere v2 chat stream events. */
  COHERE: 'PROVIDER_COHERE',
});

/**
 * Returns `value` if it is one of the names of `kind` (Profile, Admission,
 * ErrorCode or Provider), and throws a TypeError naming the accepted names
 * otherwise (a number, a lower-case or unknown name).
 */
export function checkName(kind, kindName, value) {
  const names = Object.values(kind);
  if (!names.includes(value)) {
    throw new TypeError(`${kindName} must be one of ${names.join(', ')}; got ${describe(value)}`);
  }
  return value;
}

/** A short description of any value, for error messages; never throws. */
export function describe(value) {
  if (typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (value === null || ['number', 'boolean', 'bigint', 'undefined'].includes(typeof value)) {
    return String(value);
  }
  return typeof value === 'object' ? `an object (${Object.prototype.toString.call(value)})` : `a ${typeof value}`;
}

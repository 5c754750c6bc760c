// The Validator: validation by handle that survives replicas which do not
// hold the handle.

import * as grpc from '@grpc/grpc-js';

import { ErrorCode } from './enums.js';
import { CALL_OPTIONS, checkNoOthers, compileRequest, validateRequest } from './messages.js';

/**
 * A schema given to Validator.register did not compile. `result` is the
 * server's CompileResult: its `code` (UNSUPPORTED_CAPABILITY or VALIDATION)
 * and every finding.
 */
export class SchemaError extends Error {
  constructor(result) {
    const [first] = result.errors;
    const more = result.errors.length > 1 ? ` (and ${result.errors.length - 1} more findings)` : '';
    super(`schema not compiled: ${result.code}${first ? `: ${first.message}` : ''}${more}`);
    this.name = 'SchemaError';
    this.result = result;
  }
}

/**
 * Validates arguments by handle, remembering the schema behind each handle
 * it registered. Handles are content addresses that every replica computes
 * alike, so replicas share nothing: one that never saw a schema (or
 * restarted, or evicted it) answers NOT_FOUND. The Validator then sends the
 * remembered schema inline with the arguments, so that replica compiles it,
 * keeps it and validates in the same call, and retries only once. Schemas
 * are kept until forget(). Create one with Client.validator().
 */
export class Validator {
  #client;
  #byHandle = new Map(); // handle -> CompileSchemaRequest behind it
  #bySchema = new Map(); // schemaKey -> handle

  constructor(client) {
    this.#client = client;
  }

  /**
   * Compiles `schema` (options as in Client.compile), remembers it under
   * the handle the server returns, and resolves to the CompileResult (its
   * `handle`, and any `warnings`). Rejects with a SchemaError when the
   * schema does not compile, with the ServiceError when the call fails.
   */
  async register(schema, { deadline, signal, ...options } = {}) {
    const request = compileRequest(schema, options, CALL_OPTIONS);
    const result = await this.#client.callCompile(request, { deadline, signal });
    if (result.handle === '' || result.code !== ErrorCode.UNSPECIFIED) {
      throw new SchemaError(result);
    }
    this.#remember(result.handle, request);
    return result;
  }

  /**
   * Validates `args` (JSON text or a plain object; "" means {}) against the
   * schema under `handle`. On NOT_FOUND for a handle this Validator
   * registered, sends the remembered schema inline and retries once; the
   * result's `handle` is the one that replica computed. `deadline` (a
   * point in time) bounds both calls, so the retry has what is left of it
   * and the whole call ends by it. Any other failure, and NOT_FOUND for a
   * handle it never registered, rejects with the ServiceError. Invalid
   * arguments are an answer, as ever.
   */
  async validate(handle, args, { deadline, signal, ...others } = {}) {
    checkNoOthers(others, CALL_OPTIONS);
    const request = validateRequest(args, { handle });
    try {
      return await this.#client.callValidate(request, { deadline, signal });
    } catch (err) {
      const schema = this.#byHandle.get(handle);
      if (err?.code !== grpc.status.NOT_FOUND || schema === undefined) {
        throw err;
      }
      return this.#validateInline(schema, request.arguments_json, { deadline, signal });
    }
  }

  /**
   * Validates `args` against `schema` (options as in Client.compile): the
   * first time with the schema inline (one call compiles and validates),
   * remembering the handle; later, for the same schema text, profile,
   * resources and format assertion, by that handle as validate() does. A
   * schema that does not compile is answered in-band (`valid` false, its
   * findings in `errors`) and is not remembered.
   */
  async validateSchema(schema, args, { deadline, signal, ...options } = {}) {
    const request = compileRequest(schema, options, CALL_OPTIONS);
    const handle = this.#bySchema.get(schemaKey(request));
    if (handle !== undefined) {
      return this.validate(handle, args, { deadline, signal });
    }
    return this.#validateInline(request, args, { deadline, signal });
  }

  /** Drops what the Validator remembers about `handle`; unknown handles are ignored. */
  forget(handle) {
    this.#byHandle.delete(handle);
    for (const [key, known] of this.#bySchema) {
      if (known === handle) {
        this.#bySchema.delete(key);
      }
    }
  }

  async #validateInline(request, args, call) {
    const result = await this.#client.callValidate(validateRequest(args, { inline: request }), call);
    if (result.handle !== '') {
      this.#remember(result.handle, request);
    }
    return result;
  }

  #remember(handle, request) {
    this.#byHandle.set(handle, request);
    this.#bySchema.set(schemaKey(request), handle);
  }
}

/**
 * A remembered schema's identity: everything the request compiles with, its
 * profile, exact text, resources and format assertion.
 */
function schemaKey(request) {
  const resources = Object.entries(request.resources).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([request.profile, request.schema_json, resources, request.format_assertion]);
}

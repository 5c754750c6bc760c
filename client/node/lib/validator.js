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
  // The calls of forget(): a call that sends a schema inline remembers its
  // answer only if none came while it was in flight, so that it cannot
  // undo one.
  #forgets = 0;

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
      return this.#validateInline(schema, request.arguments_json, { deadline, signal }, this.#forgets);
    }
  }

  /**
   * Validates `args` against `schema` (options as in Client.compile): the
   * first time with the schema inline (one call compiles and validates),
   * remembering the handle; later, for the same schema text, profile,
   * resources and format assertion, by that handle as validate() does. A
   * schema that does not compile is answered in-band (`valid` false, its
   * findings in `errors`) and is not remembered. Never NOT_FOUND: when the
   * handle was forgotten while its call was in flight on a replica without
   * it, the schema given is sent inline (within the same `deadline`).
   */
  async validateSchema(schema, args, { deadline, signal, ...options } = {}) {
    const request = compileRequest(schema, options, CALL_OPTIONS);
    let forgets = this.#forgets;
    const handle = this.#bySchema.get(schemaKey(request));
    if (handle !== undefined) {
      try {
        return await this.validate(handle, args, { deadline, signal });
      } catch (err) {
        if (err?.code !== grpc.status.NOT_FOUND) {
          throw err;
        }
        // forget() ran while the call was in flight, so validate() had no
        // schema to send again: this call has it.
        forgets = this.#forgets;
      }
    }
    return this.#validateInline(request, args, { deadline, signal }, forgets);
  }

  /**
   * Drops what the Validator remembers about `handle`; unknown handles are
   * ignored. A later validate() by `handle` no longer recovers from
   * NOT_FOUND. forget() wins over the calls in flight: one that sends a
   * schema inline when it is called (validate() recovering from NOT_FOUND,
   * validateSchema()) still resolves to its answer but remembers nothing
   * of it, whichever handle it was for. A register() in flight still
   * remembers its schema.
   */
  forget(handle) {
    this.#forgets++;
    this.#byHandle.delete(handle);
    for (const [key, known] of this.#bySchema) {
      if (known === handle) {
        this.#bySchema.delete(key);
      }
    }
  }

  /**
   * Validates `args` with the schema of `request` inline and remembers the
   * handle the server computed for it, unless forget() was called since it
   * had been called `forgets` times.
   */
  async #validateInline(request, args, call, forgets) {
    const result = await this.#client.callValidate(validateRequest(args, { inline: request }), call);
    if (result.handle !== '' && this.#forgets === forgets) {
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

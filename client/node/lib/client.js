// The Client: one toolgate ValidationService, one method per RPC.

import * as grpc from '@grpc/grpc-js';

import { ValidationServiceClient } from './api.js';
import { Profile } from './enums.js';
import { compileRequest, validateRequest } from './messages.js';
import { fromMessage } from './results.js';
import { ResultStream } from './stream.js';
import { Validator } from './validator.js';

/**
 * Calls one toolgate ValidationService.
 *
 * Schema and argument problems are answers (`valid` false, `code` and
 * `errors` set), never rejections. A failed call rejects with the grpc-js
 * ServiceError it is: `err.code` is `status.NOT_FOUND` for a handle the
 * replica does not hold (a Validator recovers from it), UNAUTHENTICATED,
 * INVALID_ARGUMENT, UNAVAILABLE and so on.
 */
export class Client {
  #metadata;

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
   * UNAVAILABLE. Throws a TypeError for an empty token or for `insecure`
   * together with `credentials`. Call close() when done.
   */
  constructor(target, { insecure = false, credentials, token, clientOptions } = {}) {
    if (token !== undefined && (typeof token !== 'string' || token === '')) {
      throw new TypeError('token must be a non-empty string');
    }
    if (insecure && credentials !== undefined) {
      throw new TypeError('insecure and credentials exclude each other');
    }
    const channelCredentials = credentials ?? (insecure ? grpc.credentials.createInsecure() : grpc.credentials.createSsl());
    /** The generated grpc-js client, for what this class does not wrap. */
    this.stub = new ValidationServiceClient(target, channelCredentials, clientOptions);
    this.#metadata = token === undefined ? [] : [['authorization', `Bearer ${token}`]];
  }

  /** Closes the channel; calls in flight fail with CANCELLED. Idempotent. */
  close() {
    this.stub.close();
  }

  /**
   * Compiles `schema` (JSON text or a plain object) under `profile`
   * (default: the tool input profile) and resolves to its CompileResult. A
   * schema that does not compile is an answer: no handle, `code` and every
   * finding set. `deadline` (a Date or milliseconds since the epoch) bounds
   * the call; default none. Rejects with a TypeError for a profile or
   * schema that cannot be sent as meant.
   */
  async compile(schema, { profile = Profile.UNSPECIFIED, deadline } = {}) {
    return this.callCompile(compileRequest(schema, profile), deadline);
  }

  /**
   * Validates `args` (JSON text or a plain object; "" means {}) against the
   * schema held under `handle`, and resolves to its ValidationResult.
   * Invalid arguments are an answer. Does not retry: a replica that does
   * not hold `handle` rejects with NOT_FOUND (a Validator sends the schema
   * again). `deadline` as in compile.
   */
  async validate(handle, args, { deadline } = {}) {
    return this.callValidate(validateRequest(args, { handle }), deadline);
  }

  /**
   * Compiles `schema` (or finds it compiled) and validates `args` against
   * it in one Validate call, with the schema inline. The result's `handle`
   * names the compiled schema for later calls; a schema that does not
   * compile is answered with its findings (`valid` false, `handle` "").
   * Never NOT_FOUND.
   */
  async validateSchema(schema, args, { profile = Profile.UNSPECIFIED, deadline } = {}) {
    return this.callValidate(validateRequest(args, { inline: compileRequest(schema, profile) }), deadline);
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
   * {delta: {call_id, fragment}} and {end: {call_id}} events. Options:
   * `tools` maps each tool name the model may call to its input schema
   * (JSON text or a plain object), compiled under `profile`; `deadline`
   * bounds the whole stream; `signal` (an AbortSignal) closes it. Throws a
   * TypeError at once for a bad option.
   */
  validateStream(events, options = {}) {
    return new ResultStream(this, events, options);
  }

  /** Sends a prepared CompileSchemaRequest; shared with Validator. */
  callCompile(request, deadline) {
    return this.#unary('CompileSchema', request, deadline, 'CompileSchemaResponse');
  }

  /** Sends a prepared ValidateRequest; shared with Validator. */
  callValidate(request, deadline) {
    return this.#unary('Validate', request, deadline, 'ValidateResponse');
  }

  /** Metadata for one call: this Client's token, if any. */
  metadata() {
    const metadata = new grpc.Metadata();
    for (const [key, value] of this.#metadata) {
      metadata.set(key, value);
    }
    return metadata;
  }

  #unary(method, request, deadline, responseType) {
    return new Promise((resolve, reject) => {
      this.stub[method](request, this.metadata(), { deadline }, (err, response) => {
        if (err) {
          reject(err);
        } else {
          resolve(fromMessage(responseType, response));
        }
      });
    });
  }
}

// Streams: validate tool calls, and structured output, while the model
// generates them.
//
// Client.validateStream(events, { tools, provider }) opens one
// ValidateStream, binds `tools` (tool name to schema) inline, and sends
// each event as soon as `events` yields it, while the returned
// ResultStream yields each call's CallResult as soon as the server decides
// it; Client.validateOutputStream does the same for the message text,
// bound to an output schema. An early rejection (`result.early`) arrives
// while the provider is still generating: break out of the loop (or call
// close(), or abort `signal`) and stop the provider's response, and
// nothing more is sent or paid for.

import { once } from 'node:events';

import * as grpc from '@grpc/grpc-js';

import { checkName, describe, Provider } from './enums.js';
import { checkText } from './json.js';
import { checkSignal } from './messages.js';
import { fromMessage } from './results.js';

// ignoreBOM keeps a leading byte order mark: see json.js.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// The fields each explicit event kind has; all are strings, but a named
// event's data, which may be a Uint8Array as a raw event may. A named event
// is a raw provider event with its name: `data` the server-sent event's
// payload, `name` its `event:` field, which the server checks against it.
const EVENT_FIELDS = Object.freeze({
  start: ['call_id', 'tool_name'],
  // The start of the stream's structured-output answer, sent as plain
  // deltas: a CallStart with output set.
  answer: ['call_id'],
  delta: ['call_id', 'fragment'],
  end: ['call_id'],
  named: ['name', 'data'],
});

// The event fields toRequest leaves to others to check for lone surrogates:
// a fragment to Requests, which joins a surrogate pair split between two
// fragments, and a named event's data to toRequest as the raw event it is.
const CHECKED_ELSEWHERE = new Set(['delta.fragment', 'named.data']);

// The details of a StreamReceiptError, as the Go client words them.
const NO_RECEIPT = "the stream ended without the server's receipt for the events sent";
const AFTER_RECEIPT = "the server sent a message after the stream's receipt";
const ENDED_EARLY = 'the server ended the stream before the events ended';

// The first request of every stream: it asks for the receipt, which the
// server sends only when asked (it counts this request too).
const RECEIPT_REQUEST = Object.freeze({ receipt: {} });

/**
 * The failure of a ValidateStream that the server (or a proxy on the way)
 * ended with OK before the events ended (the client had not half-closed
 * it), or without the server's receipt (StreamEnd) counting every request
 * the client sent, binds included, and every result it received, or that
 * sent a message after the receipt, which is the last. Without the
 * receipt, a proxy or a broken server that ended the stream without reading
 * the events would look like a server that read them and found no calls, so
 * the stream fails closed. It is shaped as a grpc-js ServiceError, as the
 * stream's other failures are: `code` is status.INTERNAL, `details` says
 * what was wrong, and `metadata` holds the stream's trailers (empty when
 * its status had not arrived).
 */
export class StreamReceiptError extends Error {
  constructor(details, metadata = new grpc.Metadata()) {
    super(`${grpc.status.INTERNAL} INTERNAL: ${details}`);
    this.name = 'StreamReceiptError';
    this.code = grpc.status.INTERNAL;
    this.details = details;
    this.metadata = metadata;
  }
}

/**
 * The CallResult of each call of one ValidateStream, as they arrive: an
 * async iterable, to be iterated once. Nothing is sent until the iteration
 * starts. The server sends exactly one result per call; when `events` ends
 * the stream is half-closed, so calls still open are ended (an incomplete
 * one is VALIDATION with keyword "json") and their results end the
 * iteration.
 *
 * Leaving the loop (break, return, throw), close(), or aborting the
 * `signal` ends the stream at once (calls still open get no result, and
 * results already received are not yielded) and the iteration with it,
 * without an error; close() or an abort before the iteration starts makes
 * it end at once, sending nothing. The `signal` is listened to only while
 * the stream is iterated: one never iterated leaves no listener on it.
 * Once the stream has ended, that way
 * or by the server's status (an error, while the caller is still busy with
 * an earlier result), no further event is pulled from `events` and its
 * iterator's return() is called at once, even while a pull (a read from
 * the provider's response) is in progress; that pull's event or error is
 * dropped. An async generator runs its `finally` only when that pull
 * settles, so also abort the provider's request to stop the generation.
 *
 * A result with code ERROR_CODE_NOT_FOUND (keyword "handle", `early`) is a
 * call that was not validated: its tool was bound by a handle (the
 * `handles` option) that the replica serving the stream does not hold.
 * Treat it as refused; tools bound inline (`tools`) never get it.
 *
 * The iteration throws what `events` threw (or the TypeError for an event
 * of no known kind, or with a lone surrogate: see Requests), which ends
 * the stream, after the results that had arrived before it (as gRPC
 * delivers a server's messages before its error status; results still on
 * their way are lost), and otherwise the stream's grpc-js ServiceError:
 * CANCELLED when its Client was closed (a ClientClosedError if it was
 * closed before the iteration started), INVALID_ARGUMENT for a schema that
 * does not compile (naming the tool and its first finding), a malformed
 * handle, a provider event the server cannot parse or a repeated call id,
 * RESOURCE_EXHAUSTED past the server's limits, DEADLINE_EXCEEDED past
 * `deadline`. The stream's first request asks for its receipt, and a
 * stream that ends with OK must end after the events did, with the
 * server's receipt (StreamEnd, which is never yielded) counting every
 * request written, that one and the binds included,
 * and every result received: one that ends before the events, without the
 * receipt, with other counts, or with a message after it throws a
 * StreamReceiptError (`code` INTERNAL, like a grpc-js
 * ServiceError), after the results that had arrived before it.
 */
export class ResultStream {
  #client;
  #events;
  #options;
  #binds;
  #call;
  #untrack = () => {};
  #signal;
  #onAbort = () => this.close();
  #iterated = false;
  #status; // the call's, once it arrived
  // ended: aborted by close() and by the call's status; sent: the requests
  // written, binds included, which the server's receipt must count;
  // halfClosed: set once the events ended and the call was half-closed.
  #state = { closed: false, failure: undefined, ended: new AbortController(), sent: 0, halfClosed: false };

  /**
   * Checks the provider and the events (a TypeError for either) and returns
   * the stream, not yet opened, that sends `binds` (ValidateStreamRequests,
   * see binds.js) and then the events. Use Client.validateStream or
   * Client.validateOutputStream.
   */
  constructor(client, events, { binds = [], provider, deadline, signal } = {}) {
    if (provider !== undefined) {
      checkName(Provider, 'provider', provider);
    }
    checkSignal(signal);
    if (events === null || events === undefined || (typeof events[Symbol.asyncIterator] !== 'function' && typeof events[Symbol.iterator] !== 'function')) {
      throw new TypeError(`events must be an iterable or async iterable; got ${describe(events)}`);
    }
    this.#client = client;
    this.#events = events;
    this.#options = { provider, deadline };
    this.#binds = binds;
    this.#signal = signal; // listened to only while iterated: a stream never iterated leaves no listener
  }

  /** Ends the stream now; idempotent, and harmless before its start or after its end. */
  close() {
    this.#state.closed = true;
    this.#state.ended.abort();
    this.#call?.cancel();
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#untrack();
  }

  async *[Symbol.asyncIterator]() {
    if (this.#iterated) {
      throw new TypeError('a ResultStream can be iterated only once');
    }
    this.#iterated = true;
    try {
      if (this.#signal?.aborted) {
        this.close(); // aborted before the iteration: it ends at once, as when aborted during it
      }
      if (this.#state.closed) {
        return;
      }
      this.#signal?.addEventListener('abort', this.#onAbort, { once: true }); // removed by close(), in finally below
      this.#client.checkOpen(); // a closed Client: a ClientClosedError (CANCELLED), not grpc-js's codeless Error
      this.#call = this.#client.stub.ValidateStream(this.#client.metadata(), { deadline: this.#options.deadline });
      this.#call.on('error', () => {}); // reported by the loop below; an unheard error event would crash
      this.#call.on('status', (status) => {
        this.#status = status;
        this.#state.ended.abort(); // the server's end stops the pump at once
      });
      this.#untrack = this.#client.track(this.#call); // Client.close() cancels it: the loop throws CANCELLED
      pump(this.#call, this.#binds, this.#events, this.#options.provider, this.#state);
      let receipt;
      let results = 0;
      for await (const response of this.#call) {
        // close() (or the signal) cancels the call, but grpc-js still hands
        // out the messages it had received: none is yielded after it.
        if (this.#state.closed) {
          return;
        }
        if (receipt !== undefined) {
          throw new StreamReceiptError(AFTER_RECEIPT, this.#status?.metadata);
        }
        if (response.end !== undefined && response.end !== null) {
          receipt = response.end;
        } else if (response.result) {
          results++;
          yield fromMessage('CallResult', response.result);
          if (this.#state.closed) {
            return; // closed by the caller while it held that result
          }
        } // a response of a kind this client does not know is skipped
      }
      if (this.#state.closed) {
        return;
      }
      // The call ended with OK: an error status would have thrown above.
      const failure = this.#state.halfClosed ? receiptFailure(receipt, this.#state.sent, results) : ENDED_EARLY;
      if (failure !== undefined) {
        throw new StreamReceiptError(failure, this.#status?.metadata);
      }
    } catch (err) {
      if (this.#state.closed) {
        return;
      }
      throw this.#state.failure ?? err;
    } finally {
      this.close();
    }
  }
}

/**
 * Asks for the stream's receipt, sends the binds, then one request per
 * event as `events` yields them,
 * waiting for the stream to drain when it is full, and half-closes the
 * stream at their end. Once state.ended aborts (the call's status
 * arrived, or close()), nothing more is pulled or sent and the events'
 * return() is called at once, even while a pull is in progress: that pull
 * is left to settle unheard. A failure before then (the events' own, or an
 * event that cannot be sent) is kept in state.failure and cancels the
 * call; a later one is not heard, the stream's end came first. Counts
 * each request written in state.sent, and sets state.halfClosed as it
 * half-closes. Never rejects.
 */
async function pump(call, binds, events, provider, state) {
  const { signal: ended } = state.ended;
  let iterator;
  let open = false; // whether the events were left before their end, to be returned
  try {
    await send(call, RECEIPT_REQUEST, state);
    for (const bind of binds) {
      await send(call, bind, state);
    }
    iterator = asyncIterator(events);
    const requests = new Requests(provider);
    for (;;) {
      open = false; // a pull that throws has ended the events
      const step = await pull(iterator, ended);
      open = step === undefined || !step.done;
      if (ended.aborted) {
        return;
      }
      if (step.done) {
        requests.end();
        state.halfClosed = true;
        call.end();
        return;
      }
      await send(call, requests.of(step.value), state);
    }
  } catch (err) {
    if (!ended.aborted) {
      state.failure = err;
      call.cancel();
    }
  } finally {
    if (open) {
      closeEvents(iterator);
    }
  }
}

/** The async iterator of `events`, an iterable or async iterable, as for await takes it. */
function asyncIterator(events) {
  if (typeof events[Symbol.asyncIterator] === 'function') {
    return events[Symbol.asyncIterator]();
  }
  return (async function* fromSync() {
    yield* events; // return() reaches the events' own
  })();
}

/** The next step of `iterator`, or undefined if `ended` aborts first (or has). */
async function pull(iterator, ended) {
  if (ended.aborted) {
    return undefined;
  }
  let stop;
  const aborted = new Promise((resolve) => {
    stop = () => resolve(undefined);
  });
  ended.addEventListener('abort', stop, { once: true });
  try {
    return await Promise.race([iterator.next(), aborted]);
  } finally {
    ended.removeEventListener('abort', stop);
  }
}

/** Calls the return() of `iterator`, if it has one, without waiting for it; what it throws is not heard. */
function closeEvents(iterator) {
  try {
    Promise.resolve(iterator.return?.()).catch(() => {});
  } catch {
    // the stream has ended; there is no one left to tell
  }
}

/**
 * Writes `request` and counts it in state.sent, waiting for the stream to
 * drain when it is full; nothing once state.ended aborts.
 */
async function send(call, request, state) {
  const { signal: ended } = state.ended;
  if (ended.aborted) {
    return;
  }
  state.sent++;
  if (!call.write(request)) {
    await once(call, 'drain', { signal: ended });
  }
}

/**
 * Why `receipt`, the last message of a stream that ended with OK (undefined
 * if there was none), fails the stream: the details of its
 * StreamReceiptError, or undefined when it counts the `sent` requests and
 * the `results` received.
 */
function receiptFailure(receipt, sent, results) {
  if (receipt === undefined) {
    return NO_RECEIPT;
  }
  const events = int64(receipt.events);
  const sentResults = int64(receipt.results);
  if (events === BigInt(sent) && sentResults === BigInt(results)) {
    return undefined;
  }
  const text = (count, raw) => (count === undefined ? JSON.stringify(String(raw)) : String(count));
  return `the server's receipt counts ${text(events, receipt.events)} events and ${text(sentResults, receipt.results)} results; the client sent ${sent} and received ${results}`;
}

/**
 * An int64 field as a BigInt, whichever way the loader's `longs` option
 * gave it: a decimal string (String, this client's), a number (Number) or
 * a Long (the default); unset (the loader's defaults off) is 0. Anything
 * else is undefined, which counts nothing.
 */
function int64(value) {
  if (value === undefined || value === null) {
    return 0n;
  }
  if (typeof value === 'string') {
    return /^-?[0-9]+$/.test(value) ? BigInt(value) : undefined;
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? BigInt(value) : undefined;
  }
  if (typeof value === 'object' && Number.isInteger(value.low) && Number.isInteger(value.high)) {
    const bits = (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
    return value.unsigned ? bits : BigInt.asIntN(64, bits);
  }
  return undefined;
}

/**
 * Converts the events of one stream into its ValidateStreamRequests, one
 * per event (see toRequest). A delta fragment that ends with a high
 * surrogate, as a caller cutting a JavaScript string at a UTF-16 index may
 * leave it, is sent without it, and the surrogate with its call's next
 * fragment that is not empty (an empty one, as slicing at one index twice
 * leaves it, is sent empty and carries the surrogate over), which must
 * start with the low surrogate that completes the pair. Every other lone
 * surrogate is a TypeError: one inside a fragment, a held one that the
 * next non-empty fragment does not complete, and one still held at the
 * call's end or at the end of the events.
 */
export class Requests {
  #provider;
  #held = new Map(); // call_id -> the high surrogate held back from its last fragment

  constructor(provider) {
    this.#provider = provider;
  }

  /** The request for `event`; throws a TypeError for an event that cannot be sent as meant. */
  of(event) {
    const request = toRequest(event, this.#provider);
    if (request.end !== undefined && this.#held.has(request.end.call_id)) {
      this.#refuseHeld(request.end.call_id, 'the call ends');
    }
    if (request.delta === undefined) {
      return request;
    }
    const { call_id } = request.delta;
    const held = this.#held.get(call_id) ?? '';
    if (held !== '' && request.delta.fragment === '') {
      return request; // an empty fragment (a slice between two equal indices) carries the held surrogate over
    }
    if (held !== '' && !isSurrogate(request.delta.fragment, 0xdc00)) {
      this.#refuseHeld(call_id, 'its next fragment does not start with the low surrogate');
    }
    this.#held.delete(call_id);
    let fragment = held + request.delta.fragment;
    if (isSurrogate(fragment.slice(-1), 0xd800)) {
      this.#held.set(call_id, fragment.slice(-1));
      fragment = fragment.slice(0, -1);
    }
    return { delta: { call_id, fragment: checkText(fragment, `a delta fragment of call ${JSON.stringify(call_id)}`) } };
  }

  /** Throws a TypeError if a fragment's high surrogate is still held back when the events end. */
  end() {
    const [call_id] = this.#held.keys();
    if (call_id !== undefined) {
      this.#refuseHeld(call_id, 'the events end');
    }
  }

  #refuseHeld(call_id, why) {
    const unit = this.#held.get(call_id).charCodeAt(0).toString(16).toUpperCase();
    throw new TypeError(`a delta fragment of call ${JSON.stringify(call_id)} ends with a high surrogate (U+${unit}), and ${why}: a lone surrogate is not text UTF-8 can carry`);
  }
}

/** Whether `text` starts with a surrogate of the kind whose range begins at `first` (0xd800 high, 0xdc00 low). */
function isSurrogate(text, first) {
  const unit = text.charCodeAt(0);
  return unit >= first && unit < first + 0x400;
}

/**
 * Converts one event into a ValidateStreamRequest, or throws a TypeError,
 * for a string with a lone surrogate too (see checkText), but for a delta's
 * fragment, which Requests checks.
 */
export function toRequest(event, provider) {
  if (typeof event === 'string' || event instanceof Uint8Array) {
    if (provider === undefined) {
      throw new TypeError('a raw provider event needs the provider option');
    }
    const event_json = typeof event === 'string' ? checkText(event, 'a raw provider event') : decoder.decode(event);
    return { provider_event: { provider, event_json } };
  }
  const kinds = typeof event === 'object' && event !== null ? Object.keys(event) : [];
  const [kind] = kinds;
  if (kinds.length !== 1 || !Object.hasOwn(EVENT_FIELDS, kind)) {
    throw new TypeError(`a stream event must be a string, a Uint8Array, {named}, {start}, {answer}, {delta} or {end}; got ${describe(event)} with keys ${JSON.stringify(kinds)}`);
  }
  const body = event[kind];
  const fields = EVENT_FIELDS[kind];
  const given = typeof body === 'object' && body !== null ? Object.keys(body) : [];
  if (given.length !== fields.length || !fields.every((f) => Object.hasOwn(body, f))) {
    throw new TypeError(`a ${kind} event must have exactly the fields ${fields.join(', ')}; got keys ${JSON.stringify(given)}`);
  }
  for (const f of fields) {
    const bytesOK = kind === 'named' && f === 'data' && body[f] instanceof Uint8Array;
    if (typeof body[f] !== 'string' && !bytesOK) {
      throw new TypeError(`a ${kind} event's ${f} must be a string${kind === 'named' && f === 'data' ? ' or a Uint8Array' : ''}; got ${describe(body[f])}`);
    }
    if (!CHECKED_ELSEWHERE.has(`${kind}.${f}`)) {
      checkText(body[f], `a ${kind} event's ${f}`);
    }
  }
  if (kind === 'named') {
    const { provider_event } = toRequest(body.data, provider);
    return { provider_event: { ...provider_event, event_name: body.name } };
  }
  if (kind === 'answer') {
    return { start: { call_id: body.call_id, output: true } };
  }
  return { [kind]: Object.fromEntries(fields.map((f) => [f, body[f]])) };
}

// What the interop tests share: the replicas, unique schemas, the recording;
// and a fake in-process server for what a real replica never does.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import * as grpc from '@grpc/grpc-js';

import { Client, ValidationServiceClient } from '../index.js';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** The address of replica `name` ("A", "B", "AUTH"); throws, never skips, when it is not set. */
export function replicaAddress(name) {
  const address = process.env[`TOOLGATE_ADDR_${name}`];
  if (!address) {
    throw new Error(`TOOLGATE_ADDR_${name} is not set: run these tests with \`make interop\``);
  }
  return address;
}

/** A Client with its own plaintext channel to replica `name`. */
export function connect(name) {
  return new Client(replicaAddress(name), { insecure: true });
}

/**
 * `schema` with a description no other run has used, so that its handle is
 * new to both replicas (which every suite and test share).
 */
export function unique(schema) {
  return { ...schema, description: `interop run ${randomUUID()}` };
}

/** The events (one payload per line) and expected calls of a recording under client/interop/testdata. */
export function recording(name) {
  const base = `${REPO}client/interop/testdata/${name}`;
  const events = readFileSync(`${base}.jsonl`, 'utf8').split('\n').filter((line) => line !== '');
  const expected = JSON.parse(readFileSync(`${base}.expected.json`, 'utf8'));
  return { events, expected };
}

// The tools of the recording openai-chat/parallel-weather-and-stock.
export const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, country: { type: 'string' }, units: { type: 'string', enum: ['c', 'f'] } },
  required: ['city', 'country', 'units'],
  additionalProperties: false,
};
export const STOCK = { type: 'object', properties: { ticker: { type: 'string' }, exchange: { type: 'string' } }, required: ['ticker'], additionalProperties: false };

/** The weather schema, with the country restricted to `codes`. */
export const countryIn = (...codes) => ({ ...WEATHER, properties: { ...WEATHER.properties, country: { type: 'string', enum: codes } } });

/**
 * Raw OpenAI Chat events of one choice, as a model given response_format
 * and tools streams them: it writes `answer` as its message text, in two
 * pieces, then makes each call of `calls` ([id, tool name, arguments]), and
 * its turn ends ("tool_calls" when it made any, else "stop").
 */
export function chatAnswerAndCalls(answer, ...calls) {
  const event = (delta, finish_reason = null) => JSON.stringify({ choices: [{ index: 0, delta, finish_reason }] });
  const half = Math.floor(answer.length / 2);
  return [
    event({ role: 'assistant', content: answer.slice(0, half) }),
    event({ content: answer.slice(half) }),
    ...calls.flatMap(([id, name, args], index) => [
      event({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] }),
      event({ tool_calls: [{ index, function: { arguments: args } }] }),
    ]),
    event({}, calls.length > 0 ? 'tool_calls' : 'stop'),
  ];
}

/** Every result of a ResultStream, in order. */
export async function collect(results) {
  const out = [];
  for await (const result of results) {
    out.push(result);
  }
  return out;
}

/** The UTF-8 byte offset of `fragment` in `text`, plus `plus`. */
export function offsetOf(text, fragment, plus = 0) {
  return Buffer.byteLength(text.slice(0, text.indexOf(fragment))) + plus;
}

/**
 * A Client with its own channel to replica `name` that watches what its
 * calls receive, as it arrives and before the client's code sees it:
 * `received(n)` resolves once n messages have arrived, in all, and `ended`
 * with the first status that does.
 */
export function watched(name) {
  let count = 0;
  const waiting = [];
  let ended;
  const settle = () => waiting.filter(([n]) => count >= n).forEach(([, resolve]) => resolve());
  const interceptor = (options, nextCall) => new grpc.InterceptingCall(nextCall(options), {
    start(metadata, _listener, next) {
      next(metadata, {
        onReceiveMessage(message, forward) {
          forward(message);
          count++;
          settle();
        },
        onReceiveStatus(status, forward) {
          forward(status);
          ended(status);
        },
      });
    },
  });
  return {
    client: new Client(replicaAddress(name), { insecure: true, clientOptions: { interceptors: [interceptor] } }),
    received: (n) => new Promise((resolve) => {
      waiting.push([n, resolve]);
      settle();
    }),
    ended: new Promise((resolve) => {
      ended = resolve;
    }),
  };
}

/**
 * A grpc-js Channel that sends each call to whichever real channel route()
 * named last, as a load balancer moving a client between replicas would
 * (pass it as clientOptions.channelOverride).
 */
export class SwitchChannel {
  #channels;
  #current;
  #streams;

  constructor(addresses) {
    this.#channels = Object.fromEntries(
      Object.entries(addresses).map(([name, address]) => [name, new grpc.Channel(address, grpc.credentials.createInsecure(), {})]),
    );
  }

  /**
   * Sends the calls made from now on to channel `name`, and the streams
   * (ValidateStream) among them to `streams` (default `name` too).
   */
  route(name, { streams = name } = {}) {
    this.#current = this.#channels[name];
    this.#streams = this.#channels[streams];
  }

  createCall(method, ...args) {
    const channel = method.endsWith('/ValidateStream') ? this.#streams : this.#current;
    return channel.createCall(method, ...args);
  }

  getTarget() {
    return this.#current.getTarget();
  }

  getConnectivityState(tryToConnect) {
    return this.#current.getConnectivityState(tryToConnect);
  }

  watchConnectivityState(...args) {
    return this.#current.watchConnectivityState(...args);
  }

  getChannelzRef() {
    return this.#current.getChannelzRef();
  }

  close() {
    for (const channel of Object.values(this.#channels)) {
      channel.close();
    }
  }
}

/**
 * Starts an in-process grpc-js ValidationService on a free loopback port,
 * whose ValidateStream is `handler` (a grpc-js bidi handler, given the
 * server's call); the other methods are UNIMPLEMENTED. Resolves to its
 * `address` and a `client` connected to it (plaintext); close() closes
 * both.
 */
export async function fakeServer(handler) {
  const server = new grpc.Server();
  server.addService(ValidationServiceClient.service, { ValidateStream: handler });
  const port = await new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
  const address = `127.0.0.1:${port}`;
  const client = new Client(address, { insecure: true });
  return {
    address,
    client,
    close() {
      client.close();
      server.forceShutdown();
    },
  };
}

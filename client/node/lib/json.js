// Schemas and arguments as exact JSON text. toolgate reads them from the
// `*_json` string fields, which keep every digit; this client never sends
// the `*_struct` fields (@grpc/proto-loader does not apply the JSON mapping
// to google.protobuf.Struct, so a plain object there becomes an empty
// Struct: a schema that accepts everything).

import { describe } from './enums.js';

// ignoreBOM keeps a leading byte order mark, which the server refuses as
// JSON text, as it does the same bytes from any other client: stripping it
// here would validate other bytes than the caller then hands on.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Returns `value` as JSON text for a `*_json` field; `what` names it in
 * errors.
 *
 * A string is sent unchanged (the exact text, numbers and all: pass text
 * for numbers a double cannot hold), and must be well-formed UTF-16 (see
 * checkText). A Uint8Array (or Buffer) must be UTF-8 and is decoded. A plain object or array is written by JSON.stringify,
 * after a check that it holds only what JSON can say, since JSON.stringify
 * silently drops or rewrites the rest: it throws a TypeError for undefined,
 * functions, symbols (as values or keys), BigInt, NaN and infinities, array holes, objects that
 * are not plain (Date, Map, class instances: their toJSON or lack of fields
 * would be sent), and cycles; and for a string or key with a lone
 * surrogate, as text gets (see checkText), naming the member that holds
 * it. Invalid UTF-8 bytes are a TypeError too.
 */
export function jsonText(value, what) {
  if (typeof value === 'string') {
    return checkText(value, what);
  }
  if (value instanceof Uint8Array) {
    return utf8.decode(value);
  }
  if (!isPlainObject(value) && !Array.isArray(value)) {
    throw new TypeError(`${what} must be JSON text (a string) or a plain object; got ${describe(value)}`);
  }
  checkJSON(value, what, []);
  return JSON.stringify(value);
}

function checkJSON(value, path, ancestors) {
  if (typeof value === 'string') {
    checkText(value, path);
    return;
  }
  if (value === null || typeof value === 'boolean') {
    return;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new TypeError(`${path} is ${value}, which JSON cannot hold`);
    }
    return;
  }
  if (Array.isArray(value) || isPlainObject(value)) {
    if (ancestors.includes(value)) {
      throw new TypeError(`${path} refers to itself: JSON cannot hold a cycle`);
    }
    ancestors.push(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!(i in value)) {
          throw new TypeError(`${path}[${i}] is a hole in the array, which JSON cannot hold`);
        }
        checkJSON(value[i], `${path}[${i}]`, ancestors);
      }
    } else {
      if (Object.getOwnPropertySymbols(value).length > 0) {
        throw new TypeError(`${path} has a symbol key, which JSON cannot hold`);
      }
      for (const [key, member] of Object.entries(value)) {
        checkText(key, `the key ${JSON.stringify(key)} of ${path}`); // stringify escapes the surrogate: the message is text
        checkJSON(member, `${path}.${key}`, ancestors);
      }
    }
    ancestors.pop();
    return;
  }
  throw new TypeError(`${path} is ${describe(value)}, which JSON cannot hold`);
}

// A code point that is a surrogate: with the u flag, only a lone one.
const loneSurrogate = /\p{Surrogate}/u;

/**
 * Returns `text` if it is well-formed UTF-16, and throws a TypeError naming
 * `what` and where if it holds a lone surrogate ('\ud800'), which UTF-8
 * cannot encode: protobufjs would send bytes that are not UTF-8, and the
 * server refuses the whole call or stream that holds them. An object's
 * strings and keys are checked too (see jsonText): JSON.stringify would
 * write a lone surrogate as the escape \ud800, which is valid UTF-8 but
 * which the server refuses as JSON text ("lone surrogate in string
 * escape"), so the schema would not compile or the arguments would be
 * invalid, with a finding rather than this TypeError.
 */
export function checkText(text, what) {
  if (text.isWellFormed?.() ?? !loneSurrogate.test(text)) { // isWellFormed: Node 20
    return text;
  }
  const at = text.search(loneSurrogate);
  const unit = text.charCodeAt(at).toString(16).toUpperCase();
  throw new TypeError(`${what} holds a lone surrogate (U+${unit} at UTF-16 index ${at}), which is not text UTF-8 can carry`);
}

/** Whether `value` is a plain object: an object literal, or one with a null prototype. */
export function isPlainObject(value) {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Results as plain, frozen objects. Every RPC answer is converted once,
// here, from the loaded message: fields keep their proto names
// (`schema_path`, `call_id`), enums are names, int64 fields (`offset`,
// `bytes`) are numbers, repeated findings are arrays of findings, and maps
// (`bind`) are plain objects.

import { descriptor } from './api.js';

/**
 * Converts `message`, a toolgate.v1 message of type `typeName` as the
 * loader gives it, into a frozen plain object with the same fields.
 */
export function fromMessage(typeName, message) {
  const type = descriptor(typeName);
  const out = {};
  for (const field of type.field) {
    const entry = mapEntry(type, field);
    out[field.name] = entry === undefined ? fieldValue(field, message[field.name]) : mapValue(entry, message[field.name]);
  }
  return Object.freeze(out);
}

/**
 * The entry type of `field` of message type `type` when it is a map field
 * (a repeated message field whose type is an entry nested in `type`),
 * undefined otherwise.
 */
function mapEntry(type, field) {
  if (field.type !== 'TYPE_MESSAGE') {
    return undefined;
  }
  return type.nestedType.find((nested) => nested.name === field.typeName && nested.options?.mapEntry);
}

/** A map, as the loader gives it (an object from key to value), with each value converted. */
function mapValue(entry, value) {
  const valueField = entry.field.find((f) => f.name === 'value');
  return Object.freeze(Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fieldValue(valueField, item)])));
}

function fieldValue(field, value) {
  if (field.label === 'LABEL_REPEATED') {
    return Object.freeze(value.map((item) => fieldValue({ ...field, label: 'LABEL_OPTIONAL' }, item)));
  }
  switch (field.type) {
    case 'TYPE_MESSAGE':
      return fromMessage(field.typeName, value);
    case 'TYPE_ENUM':
      // A number is a value this client's proto does not know (a newer
      // server): kept as its decimal string, as the JSON mapping prints it.
      return String(value);
    case 'TYPE_INT64':
    case 'TYPE_UINT64':
      return safeInteger(field.name, value);
    default:
      return value;
  }
}

function safeInteger(name, text) {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`${name} ${text} is beyond the integers a JavaScript number holds exactly`);
  }
  return n;
}

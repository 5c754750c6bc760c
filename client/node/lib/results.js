// Results as plain, frozen objects. Every RPC answer is converted once,
// here, from the loaded message: fields keep their proto names
// (`schema_path`, `call_id`), enums are names, int64 fields (`offset`,
// `bytes`) are numbers, repeated findings are arrays of findings.

import { descriptor } from './api.js';

/**
 * Converts `message`, a toolgate.v1 message of type `typeName` as the
 * loader gives it, into a frozen plain object with the same fields.
 */
export function fromMessage(typeName, message) {
  const out = {};
  for (const field of descriptor(typeName).field) {
    out[field.name] = fieldValue(field, message[field.name]);
  }
  return Object.freeze(out);
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

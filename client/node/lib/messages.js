// Request messages, built in one place: schemas and arguments always
// travel in the exact `*_json` fields, enums by checked name.

import { checkName, describe, Profile } from './enums.js';
import { isPlainObject, jsonText } from './json.js';

/**
 * Returns the CompileSchemaRequest for `schema` (JSON text or a plain
 * object: see jsonText) compiled with `options`: `profile` (a Profile
 * name; default PROFILE_UNSPECIFIED, the tool input profile), `resources`
 * (a plain object from absolute URI, as `$ref` and `$schema` name them, to
 * a further schema document, JSON text or a plain object; default none)
 * and `formatAssertion` (assert `format`; default false). The last two are
 * for PROFILE_JSON_SCHEMA: the server refuses them under other profiles
 * with INVALID_ARGUMENT. Throws a TypeError for a profile, schema,
 * resource or flag that cannot be sent as meant.
 */
export function compileRequest(schema, { profile = Profile.UNSPECIFIED, resources = {}, formatAssertion = false } = {}) {
  return {
    profile: checkName(Profile, 'profile', profile),
    schema_json: jsonText(schema, 'schema'),
    resources: resourceTexts(resources),
    format_assertion: checkFlag(formatAssertion, 'formatAssertion'),
  };
}

/** Returns `value` if it is a boolean, and throws a TypeError naming `what` otherwise. */
export function checkFlag(value, what) {
  if (typeof value !== 'boolean') {
    throw new TypeError(`${what} must be a boolean; got ${describe(value)}`);
  }
  return value;
}

function resourceTexts(resources) {
  if (!isPlainObject(resources)) {
    throw new TypeError(`resources must be a plain object from URI to schema document; got ${describe(resources)}`);
  }
  return Object.fromEntries(Object.entries(resources).map(([uri, document]) => [uri, jsonText(document, `resource ${JSON.stringify(uri)}`)]));
}

/**
 * Returns the ValidateRequest for `args` against `handle` or, when
 * `inline` (a CompileSchemaRequest) is given, against that schema.
 */
export function validateRequest(args, { handle, inline } = {}) {
  const arguments_json = jsonText(args, 'arguments');
  return inline === undefined ? { handle, arguments_json } : { inline, arguments_json };
}

// Request messages, built in one place: schemas and arguments always
// travel in the exact `*_json` fields, enums by checked name.

import { checkName, Profile } from './enums.js';
import { jsonText } from './json.js';

/**
 * Returns the CompileSchemaRequest for `schema` (JSON text or a plain
 * object: see jsonText) under `profile` (a Profile name; default
 * PROFILE_UNSPECIFIED, the tool input profile). Throws a TypeError for a
 * profile or schema that cannot be sent as meant.
 */
export function compileRequest(schema, profile = Profile.UNSPECIFIED) {
  return { profile: checkName(Profile, 'profile', profile), schema_json: jsonText(schema, 'schema') };
}

/**
 * Returns the ValidateRequest for `args` against `handle` or, when
 * `inline` (a CompileSchemaRequest) is given, against that schema.
 */
export function validateRequest(args, { handle, inline } = {}) {
  const arguments_json = jsonText(args, 'arguments');
  return inline === undefined ? { handle, arguments_json } : { inline, arguments_json };
}

// Request messages, built in one place: schemas and arguments always
// travel in the exact `*_json` fields, enums by checked name.

import { Admission, checkName, describe, Profile } from './enums.js';
import { checkText, isPlainObject, jsonText } from './json.js';

/**
 * Returns the CompileSchemaRequest for `schema` (JSON text or a plain
 * object: see jsonText) compiled with `options`: `profile` (a Profile
 * name; default PROFILE_UNSPECIFIED, the tool input profile), `resources`
 * (a plain object from absolute URI, as `$ref` and `$schema` name them, to
 * a further schema document, JSON text or a plain object; default none)
 * and `formatAssertion` (assert `format`; default false). The last two are
 * for PROFILE_JSON_SCHEMA: the server refuses them under other profiles
 * with INVALID_ARGUMENT. Throws a TypeError for a profile, schema,
 * resource or flag that cannot be sent as meant. `also` names the options
 * of the method that calls it, besides these, for the TypeError of an
 * unknown one.
 */
export function compileRequest(schema, options = {}, also = []) {
  return { ...compileFields(options, also), schema_json: jsonText(schema, 'schema') };
}

/**
 * Returns the CompileToolsetRequest for `tools` compiled with `options`:
 * those of compileRequest, for every tool, and `admission` (an Admission
 * name; default ADMISSION_UNSPECIFIED, which the server treats as
 * ADMISSION_QUARANTINE). `tools` is told apart as Client.compileToolset
 * documents: JSON text, or a plain object with a "tools" array, a
 * "jsonrpc" member or a "result" with a "tools" array, is a tools/list
 * document sent as `tools_list_json`; a Map or any other plain object,
 * from tool name to schema, is a ToolList in its order. Throws a TypeError for any other `tools`, a Map key that is not a
 * string, and a document, schema, option or resource that cannot be sent
 * as meant.
 */
export function toolsetRequest(tools, { admission = Admission.UNSPECIFIED, ...options } = {}, also = []) {
  return {
    ...compileFields(options, ['admission', ...also]),
    admission: checkName(Admission, 'admission', admission),
    ...toolsSource(tools),
  };
}

/**
 * The fields of a compile request that say how to compile (see
 * compileRequest); throws a TypeError for an option that cannot be sent as
 * meant, or that neither compileRequest nor `also` (the calling method's
 * other options) names.
 */
export function compileFields({ profile = Profile.UNSPECIFIED, resources = {}, formatAssertion = false, ...others }, also = []) {
  checkNoOthers(others, ['profile', 'resources', 'formatAssertion', ...also]);
  return {
    profile: checkName(Profile, 'profile', profile),
    resources: resourceTexts(resources),
    format_assertion: checkFlag(formatAssertion, 'formatAssertion'),
  };
}

/**
 * Throws a TypeError naming the keys of `others`, options a method does
 * not know (a misspelling such as format_assertion would otherwise change
 * what is checked without a word), and `known`, the names of the ones it
 * does.
 */
export function checkNoOthers(others, known) {
  const keys = Object.keys(others);
  if (keys.length > 0) {
    throw new TypeError(`unknown option${keys.length > 1 ? 's' : ''} ${keys.map((k) => JSON.stringify(k)).join(', ')}; the options are ${known.join(', ')}`);
  }
}

/** The options of every call besides what it sends: its deadline and its AbortSignal. */
export const CALL_OPTIONS = ['deadline', 'signal'];

/** Throws a TypeError unless `signal` is an AbortSignal or undefined. */
export function checkSignal(signal) {
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`signal must be an AbortSignal; got ${describe(signal)}`);
  }
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
  return Object.fromEntries(
    Object.entries(resources).map(([uri, document]) => [checkText(uri, 'a resource URI'), jsonText(document, `resource ${JSON.stringify(uri)}`)]),
  );
}

/** The `source` member of a CompileToolsetRequest for `tools` (see toolsetRequest). */
function toolsSource(tools) {
  if (typeof tools === 'string' || tools instanceof Uint8Array || isToolsDocument(tools)) {
    return { tools_list_json: jsonText(tools, 'tools') };
  }
  if (!(tools instanceof Map) && !isPlainObject(tools)) {
    throw new TypeError(`tools must be a tools/list result (JSON text or a plain object) or a Map or plain object from tool name to schema; got ${describe(tools)}`);
  }
  const entries = tools instanceof Map ? [...tools] : Object.entries(tools);
  return {
    tools: {
      tools: entries.map(([name, schema]) => {
        if (typeof name !== 'string') {
          throw new TypeError(`a tool name must be a string; got ${describe(name)}`);
        }
        return { name: checkText(name, 'a tool name'), schema_json: jsonText(schema, `tool ${JSON.stringify(name)}`) };
      }),
    },
  };
}

/**
 * Whether `tools` is a plain object that holds a tools/list document rather
 * than tool names to schemas: it has a "tools" array (no schema is an
 * array), a "jsonrpc" member, or a "result" with a "tools" array. The
 * Python client's rule, so that one object means the same to both.
 */
function isToolsDocument(tools) {
  return isPlainObject(tools) && (hasToolsArray(tools) || Object.hasOwn(tools, 'jsonrpc') || hasToolsArray(tools.result));
}

/** Whether `value` is a plain object whose own "tools" member is an array. */
function hasToolsArray(value) {
  return isPlainObject(value) && Object.hasOwn(value, 'tools') && Array.isArray(value.tools);
}

/**
 * Returns the ValidateRequest for `args` against `handle` or, when
 * `inline` (a CompileSchemaRequest) is given, against that schema.
 */
export function validateRequest(args, { handle, inline } = {}) {
  const arguments_json = jsonText(args, 'arguments');
  return inline === undefined ? { handle, arguments_json } : { inline, arguments_json };
}

// The toolgate.v1 API as loaded by @grpc/proto-loader from the proto/ copy
// shipped with this package (`make generate` refreshes it from the
// repository's proto/), with the loader options a toolgate client needs.

import { fileURLToPath } from 'node:url';

import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/**
 * The options passed to protoLoader.loadSync. Each one matters:
 * keepCase keeps proto field names (`schema_json`; without it the loader
 * expects `schemaJson` and silently drops `schema_json`), longs: String
 * keeps int64 exact (not a Long object), enums: String gives names, not
 * numbers, defaults fills unset fields (so `valid` is `false`, not missing),
 * and oneofs names the member that is set.
 */
export const LOADER_OPTIONS = Object.freeze({
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});

const protoDir = fileURLToPath(new URL('../proto', import.meta.url));

/** The loaded package definition, keyed by full name ("toolgate.v1.CallResult"). */
export const definition = protoLoader.loadSync('toolgate/v1/validation.proto', {
  ...LOADER_OPTIONS,
  includeDirs: [protoDir],
});

/** The generated client constructor of toolgate.v1.ValidationService. */
export const ValidationServiceClient = grpc.loadPackageDefinition(definition).toolgate.v1.ValidationService;

/** The descriptor of the message or enum named `name` in toolgate.v1. */
export function descriptor(name) {
  const type = definition[`toolgate.v1.${name}`];
  if (type === undefined) {
    throw new Error(`toolgate.v1.${name} is not in the loaded proto`);
  }
  return type.type;
}

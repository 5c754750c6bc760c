// toolgate: the Node client for toolgate's ValidationService. See
// index.d.ts for the documented API, and the repository README ("From
// Node") for an example.

export { status } from '@grpc/grpc-js';

export { definition, LOADER_OPTIONS, ValidationServiceClient } from './lib/api.js';
export { Client, ClientClosedError } from './lib/client.js';
export { Admission, ErrorCode, Profile, Provider } from './lib/enums.js';
export { jsonText } from './lib/json.js';
export { ResultStream, StreamReceiptError } from './lib/stream.js';
export { SchemaError, Validator } from './lib/validator.js';

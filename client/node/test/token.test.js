// A bearer token that an authorization header cannot carry as the server
// compares it (a token read from a file keeps its trailing newline) is a
// TypeError at construction, which does not repeat the token: grpc-js
// would otherwise fail every call with a plain Error, without a code,
// whose message holds "Bearer <token>". No replica needed.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '../index.js';

const SECRET = 's3cr3t-token-value';

test('a token with a character a header cannot carry, or white space at either end, is a TypeError without the token', () => {
  const cases = {
    'a trailing newline': [`${SECRET}\n`, /U\+000A at index 18 of 19/],
    'a trailing CRLF': [`${SECRET}\r\n`, /U\+000D at index 18 of 20/],
    'a NUL': [`${SECRET}\0x`, /U\+0000/],
    'a tab inside': [`s3cr3t\ttoken`, /U\+0009 at index 6/],
    'a non-ASCII character': [`${SECRET}é`, /U\+00E9/],
    'a leading space': [` ${SECRET}`, /U\+0020 at index 0/],
    'a trailing space': [`${SECRET} `, /U\+0020 at index 18/],
  };
  for (const [name, [token, where]] of Object.entries(cases)) {
    assert.throws(
      () => new Client('127.0.0.1:1', { insecure: true, token }),
      (err) => err instanceof TypeError && where.test(err.message) && /trim it/.test(err.message) && !err.message.includes('s3cr3t') && !err.message.includes('token-value'),
      name,
    );
  }
  for (const token of ['', 42, null]) {
    assert.throws(() => new Client('127.0.0.1:1', { insecure: true, token }), /^TypeError: token must be a non-empty string$/);
  }
});

test('printable ASCII tokens, spaces inside too, are accepted and sent', async () => {
  for (const token of [SECRET, 'a', '~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}', 'two words']) {
    const client = new Client('127.0.0.1:1', { insecure: true, token });
    try {
      assert.deepEqual(client.metadata().get('authorization'), [`Bearer ${token}`]);
      // The call fails (nothing listens there), but as a ServiceError with a code.
      const err = await client.compile({ type: 'object' }, { deadline: Date.now() + 2_000 }).then(() => undefined, (e) => e);
      assert.equal(typeof err?.code, 'number', `${JSON.stringify(token)}: ${err}`);
    } finally {
      client.close();
    }
  }
});

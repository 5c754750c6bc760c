package validator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestHugeExponents: arguments may spell numbers with exponents of any
// length, past the ±2^40 at which an Accumulator's exponent saturates.
// multipleOf and uniqueItems still answer exactly: 1.5e999999999999999999
// is an integer (so a multiple of 1, as "type": "integer" agrees) and
// 1e999999999999999999 and 1e9999999999999999999 are two numbers, as are
// numbers whose exponents differ by a multiple of a modulus a document
// could name. Each
// document is checked whole and streamed one byte at a time.
func TestHugeExponents(t *testing.T) {
	t.Parallel()
	const huge, huger = "1e999999999999999999", "1e9999999999999999999"
	for _, tc := range []struct {
		schema, doc string
		valid       bool
	}{
		{`{"properties":{"n":{"type":"integer"}}}`, `{"n":1.5e999999999999999999}`, true},
		{`{"properties":{"n":{"multipleOf":1}}}`, `{"n":1.5e999999999999999999}`, true},
		{`{"properties":{"n":{"multipleOf":0.5}}}`, `{"n":4e9999999999999999999999}`, true},
		{`{"properties":{"n":{"multipleOf":0.3}}}`, `{"n":1.5e999999999999999999}`, true},
		{`{"properties":{"n":{"multipleOf":0.3}}}`, `{"n":4e9999999999999999999999}`, false},
		{`{"properties":{"n":{"multipleOf":7}}}`, `{"n":21e99999999999999999999}`, true},
		{`{"properties":{"n":{"multipleOf":7}}}`, `{"n":1e600000000000}`, false},
		{`{"properties":{"n":{"multipleOf":1}}}`, `{"n":1e-99999999999999999999}`, false},
		{`{"properties":{"n":{"type":"integer"}}}`, `{"n":1e-99999999999999999999}`, false},
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[` + huge + `,` + huger + `]}`, true},
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[` + huge + `,` + huge + `]}`, false},
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[10e1099511627776,1e1099511627777]}`, false},
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[1e-999999999999999999,1e-9999999999999999999]}`, true},
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[{"x":[` + huge + `]},{"x":[` + huger + `]}]}`, true},
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[1e+00000000000000000000005,100000]}`, false},
		// Exponents that differed by the largest prime below 2^60, the
		// modulus content hashes once used: 1 and 1e1152921504606846883
		// hashed alike, and under "not" a wrong rejection is a wrong
		// acceptance.
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[1,1e1152921504606846883]}`, true},
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[1,1e-1152921504606846883]}`, true},
		{`{"properties":{"a":{"not":{"uniqueItems":true}}}}`, `{"a":[1,1e1152921504606846883]}`, false},
		{`{"properties":{"a":{"not":{"uniqueItems":true}}}}`, `{"a":[1,1e0]}`, true},
	} {
		s := compileFor(t, schema.JSONSchema, tc.schema)
		for _, pieces := range []int{len(tc.doc), 1} {
			v := validator.New(s, validator.Options{})
			for i := 0; i < len(tc.doc); i += pieces {
				v.Write([]byte(tc.doc[i:min(i+pieces, len(tc.doc))]))
			}
			res := v.Close()
			assert.Equal(t, tc.valid, res.Valid(), "%s on %s in pieces of %d: %+v", tc.schema, tc.doc, pieces, res.Findings)
		}
	}
}

package schema_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/internal/schema"
)

// TestMultipleOfDigits: a multipleOf of more significant digits than
// Limits.MaxMultipleOfDigits is refused with keyword "limit" (its cost per
// argument digit grows with them); zeros before or after the significant
// digits do not count, and the limit is configurable.
func TestMultipleOfDigits(t *testing.T) {
	t.Parallel()
	digits := func(n int) string { return strings.Repeat("3", n-1) + "7" }
	for _, tc := range []struct {
		name, multipleOf string
		limit            int
		refused          bool
	}{
		{"at the default", digits(schema.DefaultMaxMultipleOfDigits), 0, false},
		{"past the default", digits(schema.DefaultMaxMultipleOfDigits + 1), 0, true},
		{"past the default, a fraction", "0." + digits(schema.DefaultMaxMultipleOfDigits+1), 0, true},
		{"trailing zeros do not count", "7" + strings.Repeat("0", 100), 0, false},
		{"leading zeros do not count", "0." + strings.Repeat("0", 100) + "7", 0, false},
		{"an exponent does not count", "7e-300", 0, false},
		{"a lower limit", "12345", 5, false},
		{"past a lower limit", "123456", 5, true},
		{"past a lower limit, spelled with an exponent", "1.23456e10", 5, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := `{"type":"object","properties":{"n":{"multipleOf":` + tc.multipleOf + `}}}`
			res := schema.CompileWith(schema.JSONSchema, []byte(doc), schema.Options{Limits: schema.Limits{MaxMultipleOfDigits: tc.limit}})
			if !tc.refused {
				assert.Empty(t, res.Errors)
				return
			}
			require.Len(t, res.Errors, 1)
			f := res.Errors[0]
			assert.Equal(t, schema.CodeUnsupported, f.Code)
			assert.Equal(t, "limit", f.Keyword)
			assert.Equal(t, "/properties/n/multipleOf", f.SchemaPath)
			assert.Contains(t, f.Message, "Limits.MaxMultipleOfDigits")
		})
	}
}

// TestMultipleOfDigitsShape compiles the hostile corpus's multipleof-digits
// shape, whose 227 bytes of arguments took 3.7 s against its multipleOf of
// 100,001 digits: the schema is refused at compile time now.
func TestMultipleOfDigitsShape(t *testing.T) {
	t.Parallel()
	shape, ok := hostile.Lookup("multipleof-digits")
	require.True(t, ok)
	res := schema.Compile(schema.JSONSchema, shape.Generate().Schema)
	require.Len(t, res.Errors, 1)
	assert.Equal(t, "limit", res.Errors[0].Keyword)
}

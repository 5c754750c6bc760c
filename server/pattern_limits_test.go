package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// TestPatternLimits: each limit on one regular expression is the server's
// to set. A schema within the defaults compiles; with the limit lowered
// below it, the schema is refused with UNSUPPORTED_CAPABILITY keyword
// limit at its pattern, and the message names the limit.
func TestPatternLimits(t *testing.T) {
	t.Parallel()
	heavy := `"[a-q][^u-z]{10}x"` // an automaton of some 100 KB, built in some 10^5 steps
	for _, tc := range []struct {
		name   string
		opts   server.Options
		schema string
		path   string
		names  string
	}{
		{"nesting", server.Options{MaxPatternNesting: 4},
			stringPattern(`"((((((a))))))"`), "/properties/a/pattern", "MaxNesting"},
		{"program", server.Options{MaxPatternProgram: 100},
			stringPattern(`"a{200}"`), "/properties/a/pattern", "MaxProgram"},
		{"automaton bytes", server.Options{MaxPatternAutomatonBytes: 16 << 10},
			stringPattern(heavy), "/properties/a/pattern", "MaxDFABytes"},
		{"automaton steps", server.Options{MaxPatternAutomatonSteps: 1000},
			stringPattern(heavy), "/properties/a/pattern", "MaxCompileSteps"},
		{"set parts", server.Options{MaxPatternSetParts: 1, MaxPatternAutomatonBytes: 48 << 10}, // each alone fits; together, not
			`{"type":"object","patternProperties":{"[a-q][^u-z]{6}x0":{},"[a-q][^u-z]{6}x1":{},"[a-q][^u-z]{6}x2":{},"[a-q][^u-z]{6}x3":{}}}`,
			"/patternProperties", "MaxSetParts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := jsonSchemaRequest(tc.schema, nil, false)
			within, err := client(t, server.Config{}).CompileSchema(t.Context(), req)
			require.NoError(t, err)
			require.NotEmpty(t, within.GetHandle(), "within the default limits: %v", within.GetErrors())

			lowered, err := client(t, server.Config{Options: tc.opts}).CompileSchema(t.Context(), req)
			require.NoError(t, err)
			assert.Empty(t, lowered.GetHandle())
			require.NotEmpty(t, lowered.GetErrors())
			f := lowered.GetErrors()[0]
			assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, f.GetCode())
			assert.Equal(t, "limit", f.GetKeyword())
			assert.Equal(t, tc.path, f.GetSchemaPath())
			assert.Contains(t, f.GetMessage(), tc.names)
		})
	}
}

// stringPattern is an arguments schema whose one property is a string of
// the pattern src (a JSON string).
func stringPattern(src string) string {
	return `{"type":"object","properties":{"a":{"type":"string","pattern":` + src + `}}}`
}

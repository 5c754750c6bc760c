package pattern_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/pattern"
)

// TestJSONSchemaTestSuite runs every case of the suite's pattern files. The
// keywords around the patterns (type, maximum, additionalProperties, boolean
// subschemas) are evaluated by suiteOracle, a small evaluator that refuses
// any keyword it does not know, so no case passes by being ignored. Cases
// whose data is not of the type the keyword applies to (pattern on a
// number, patternProperties on an array) are the validator's business, not
// this package's: they are checked to expect "valid" and counted, never
// skipped silently. The draft2019-09 and draft7 copies of these files hold
// the same groups, minus the \p{Letter} groups draft2020-12 adds.
func TestJSONSchemaTestSuite(t *testing.T) {
	t.Parallel()
	var files []string
	for _, name := range []string{"pattern.json", "patternProperties.json", "optional/ecmascript-regex.json",
		"optional/non-bmp-regex.json", "optional/format/regex.json", "optional/format/ecmascript-regex.json"} {
		files = append(files, fixtures.Testdata(t, "json-schema-test-suite/draft2020-12/"+name))
	}
	run, outOfScope := 0, 0
	for _, file := range files {
		for _, g := range fixtures.ReadSuite(t, file) {
			schema := decodeJSON(t, g.Schema).(map[string]any)
			o := &suiteOracle{t: t, patterns: map[string]*pattern.Pattern{}}
			for _, c := range g.Tests {
				name := filepath.Base(file) + "/" + g.Description + "/" + c.Description
				instance := decodeJSON(t, c.Data)
				verdict, applies := o.eval(schema, instance)
				if !applies {
					outOfScope++
					assert.True(t, c.Valid, "%s: a keyword that does not apply must pass", name)
					continue
				}
				run++
				assert.Equal(t, c.Valid, verdict, name)
			}
		}
	}
	t.Logf("%d cases run, %d out of scope (the keyword does not apply to the data's type)", run, outOfScope)
	assert.Equal(t, 143, run+outOfScope, "every case of the six files is accounted for")
}

func decodeJSON(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

// suiteOracle evaluates the few keywords of the pattern files, compiling
// each pattern and set once per group.
type suiteOracle struct {
	t        *testing.T
	patterns map[string]*pattern.Pattern
	set      *pattern.Set
	exprs    []string
}

// eval evaluates schema on instance: applies is false when the schema's
// pattern keywords do not apply to the instance.
func (o *suiteOracle) eval(schema map[string]any, instance any) (valid, applies bool) {
	t := o.t
	t.Helper()
	valid, applies = true, false
	for key, value := range schema {
		switch key {
		case "$schema":
		case "type":
			valid = valid && hasType(t, instance, value.(string))
		case "pattern":
			if s, ok := instance.(string); ok {
				applies = true
				p, ok := o.patterns[value.(string)]
				if !ok {
					var err error
					p, err = pattern.Compile(value.(string), pattern.ECMA262, pattern.Limits{})
					require.NoError(t, err, value)
					o.patterns[value.(string)] = p
				}
				valid = valid && p.MatchString(s)
			}
		case "format":
			require.Equal(t, "regex", value)
			if s, ok := instance.(string); ok {
				applies = true
				valid = valid && pattern.Valid(s, pattern.Limits{}) == nil
			}
		case "patternProperties":
			if obj, ok := instance.(map[string]any); ok {
				applies = true
				valid = valid && o.patternProperties(value.(map[string]any), schema["additionalProperties"], obj)
			}
		case "additionalProperties": // with patternProperties
			require.Contains(t, schema, "patternProperties")
		default:
			t.Fatalf("suiteOracle does not know the keyword %q", key)
		}
	}
	return valid, applies
}

// patternProperties checks each member of obj against the subschema of
// every pattern that matches its name, found with one Set.
func (o *suiteOracle) patternProperties(props map[string]any, additional any, obj map[string]any) bool {
	t := o.t
	t.Helper()
	if o.set == nil {
		for expr := range props {
			o.exprs = append(o.exprs, expr)
		}
		slices.Sort(o.exprs)
		var err error
		o.set, err = pattern.CompileSet(o.exprs, pattern.ECMA262, pattern.Limits{})
		require.NoError(t, err)
	}
	set, exprs := o.set, o.exprs
	valid := true
	for name, value := range obj {
		var m pattern.SetMatcher
		m.Reset(set)
		m.WriteString(name)
		matches := m.Matches()
		if matches.Empty() && additional == false {
			valid = false
		}
		for i := matches.Next(0); i >= 0; i = matches.Next(i + 1) {
			valid = valid && subschema(t, props[exprs[i]], value)
		}
	}
	return valid
}

// subschema evaluates the subschemas of the patternProperties files.
func subschema(t *testing.T, schema, instance any) bool {
	t.Helper()
	if b, ok := schema.(bool); ok {
		return b
	}
	valid := true
	for key, value := range schema.(map[string]any) {
		switch key {
		case "type":
			valid = valid && hasType(t, instance, value.(string))
		case "maximum":
			n, ok := instance.(json.Number)
			if ok {
				x, err := n.Float64()
				require.NoError(t, err)
				limit, err := value.(json.Number).Float64()
				require.NoError(t, err)
				valid = valid && x <= limit
			}
		default:
			t.Fatalf("subschema does not know the keyword %q", key)
		}
	}
	return valid
}

func hasType(t *testing.T, instance any, typ string) bool {
	t.Helper()
	switch typ {
	case "string":
		_, ok := instance.(string)
		return ok
	case "object":
		_, ok := instance.(map[string]any)
		return ok
	case "boolean":
		_, ok := instance.(bool)
		return ok
	case "null":
		return instance == nil
	case "number":
		_, ok := instance.(json.Number)
		return ok
	case "integer":
		n, ok := instance.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		require.NoError(t, err)
		return f == float64(int64(f))
	}
	t.Fatalf("hasType does not know the type %q", typ)
	return false
}

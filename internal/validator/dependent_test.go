package validator_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestDependentRequiredAcrossManyNames: dependentRequired is checked from
// the members an object holds (the words of its member bits), so it must
// find every entry of a present name however far apart the names sit
// among the node's 300 (five words of bits), report each missing name once
// per entry, and nothing for an absent name. The expected findings are
// worked out here from the entries themselves; the object is validated
// whole and one byte at a time, and the state is reused from one object
// to the next.
func TestDependentRequiredAcrossManyNames(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	const names = 300
	name := func(i int) string { return fmt.Sprintf("n%03d", i) }
	requires := map[int][]int{}
	var entries []string
	for i := 0; i < names; i += 1 + r.IntN(7) {
		var list []string
		for range 1 + r.IntN(3) {
			j := r.IntN(names)
			if !slices.Contains(requires[i], j) {
				requires[i] = append(requires[i], j)
				list = append(list, fmt.Sprintf("%q", name(j)))
			}
		}
		entries = append(entries, fmt.Sprintf("%q:[%s]", name(i), strings.Join(list, ",")))
	}
	s := compileFor(t, schema.JSONSchema, `{"properties":{"l":{"items":{"dependentRequired":{`+strings.Join(entries, ",")+`}}}}}`)
	var objects []string
	var want []string // "index: present name requires missing name"
	for o := range 40 {
		present := map[int]bool{}
		var members []string
		for range r.IntN(12) {
			i := r.IntN(names)
			if !present[i] {
				present[i] = true
				members = append(members, fmt.Sprintf("%q:0", name(i)))
			}
		}
		objects = append(objects, "{"+strings.Join(members, ",")+"}")
		for i := range names {
			for _, j := range requires[i] {
				if present[i] && !present[j] {
					want = append(want, fmt.Sprintf("/l/%d: %s requires %s", o, name(i), name(j)))
				}
			}
		}
	}
	require.NotEmpty(t, want)
	doc := `{"l":[` + strings.Join(objects, ",") + `]}`
	for _, pieces := range []int{len(doc), 1} {
		v := validator.New(s, validator.Options{MaxFindings: 10_000})
		for i := 0; i < len(doc); i += pieces {
			v.Write([]byte(doc[i:min(i+pieces, len(doc))]))
		}
		var got []string
		for _, f := range v.Close().Findings {
			require.Equal(t, "dependentRequired", f.Keyword, f.Message)
			var present, missing string
			for _, n := range strings.Fields(strings.NewReplacer(`"`, " ", ",", " ", ";", " ", ".", " ").Replace(f.Message)) {
				if len(n) == 4 && n[0] == 'n' {
					if present == "" {
						present = n
					} else if missing == "" {
						missing = n
					}
				}
			}
			got = append(got, fmt.Sprintf("%s: %s requires %s", f.InstancePath, present, missing))
		}
		slices.Sort(got)
		slices.Sort(want)
		require.Equal(t, want, got, "pieces of %d", pieces)
	}
}

// TestDependenciesFindingsPointAtTheKeyword: draft-07's dependencies is
// compiled as dependentRequired and dependentSchemas, but its findings
// must point at the keyword the schema has (schema_path is a pointer
// into the schema: "/dependentRequired" resolves nowhere in a draft-07
// document), whole and one byte at a time. The keyword stays the rule's
// name, as additional_properties' findings name additionalProperties.
func TestDependenciesFindingsPointAtTheKeyword(t *testing.T) {
	t.Parallel()
	const draft7 = `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"o":%s}}`
	tests := []struct {
		name, schema, doc string
		want              []violation
	}{
		{"draft-07 names", fmt.Sprintf(draft7, `{"dependencies":{"a":["b"]}}`), `{"o":{"a":1}}`,
			[]violation{{"dependentRequired", "/properties/o/dependencies", "/o"}}},
		{"draft-07 schema", fmt.Sprintf(draft7, `{"dependencies":{"c":{"required":["d"]}}}`), `{"o":{"c":1}}`,
			[]violation{{"dependentSchemas", "/properties/o/dependencies", "/o"}}},
		{"draft-07 both kinds", fmt.Sprintf(draft7, `{"dependencies":{"a":["b"],"c":{"required":["d"]}}}`), `{"o":{"a":1,"c":2}}`,
			[]violation{{"dependentRequired", "/properties/o/dependencies", "/o"}, {"dependentSchemas", "/properties/o/dependencies", "/o"}}},
		{"2020-12 dependentRequired", `{"properties":{"o":{"dependentRequired":{"a":["b"]}}}}`, `{"o":{"a":1}}`,
			[]violation{{"dependentRequired", "/properties/o/dependentRequired", "/o"}}},
		{"2020-12 dependentSchemas", `{"properties":{"o":{"dependentSchemas":{"c":{"required":["d"]}}}}}`, `{"o":{"c":1}}`,
			[]violation{{"dependentSchemas", "/properties/o/dependentSchemas", "/o"}}},
		{"2020-12 beside dependencies", `{"properties":{"o":{"dependencies":{"a":["b"]},"dependentRequired":{"c":["d"]}}}}`, `{"o":{"a":1,"c":2}}`,
			[]violation{{"dependentRequired", "/properties/o/dependencies", "/o"}, {"dependentRequired", "/properties/o/dependentRequired", "/o"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := compileFor(t, schema.JSONSchema, tc.schema)
			for _, pieces := range []int{len(tc.doc), 1} {
				v := validator.New(s, validator.Options{})
				for i := 0; i < len(tc.doc); i += pieces {
					v.Write([]byte(tc.doc[i:min(i+pieces, len(tc.doc))]))
				}
				require.ElementsMatch(t, tc.want, stable(v.Close().Findings), "pieces of %d", pieces)
			}
		})
	}
}

package validator_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// The conformance test runs the official JSON-Schema-Test-Suite for draft
// 2020-12 (top-level files of the repository's
// testdata/json-schema-test-suite/draft2020-12, see its PROVENANCE.md)
// through the tool input profile. The profile's root must be an object
// schema, so each group's schema S (root $schema dropped) is wrapped as
//
//	{"type":"object","properties":{"v":S},"required":["v"]}
//
// and each test's data x as {"v":x}, which applies S to x exactly as at the
// root. A wrapped schema inside the profile must give the suite's verdict on
// every test; any other must be refused as UNSUPPORTED_CAPABILITY, since
// every suite schema is legal JSON Schema (DESIGN.md §3 keeps VALIDATION for
// schemas that break JSON Schema itself).

// Expected tally under DESIGN.md §3 (CLASSIFICATION.md, "Read this first").
const (
	confGroupsInside  = 8
	confTestsInside   = 56
	confGroupsRefused = 375
)

// confExpectedFailures lists "file/group/test" cases inside the profile
// whose suite verdict we do not follow, each with its reason. Empty: the
// profile follows JSON Schema on everything it accepts.
var confExpectedFailures = map[string]string{}

// confValidationGroups lists "file/group" groups that DESIGN.md §3 refuses
// with VALIDATION rather than UNSUPPORTED_CAPABILITY, each with its reason.
// Empty: no suite schema breaks JSON Schema itself.
var confValidationGroups = map[string]string{}

func TestConformance(t *testing.T) {
	t.Parallel()
	dir := fixtures.Testdata(t, filepath.Join("json-schema-test-suite", "draft2020-12"))
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no suite files in %s", dir)

	var groupsIn, groupsOut, testsIn, testsPassing int
	refusedBy := map[string]int{} // keyword of the first finding → groups
	seenFailures := map[string]bool{}
	for _, path := range files {
		file := filepath.Base(path)
		groups := fixtures.ReadSuite(t, path)
		t.Run(file, func(t *testing.T) {
			for _, g := range groups {
				t.Run(g.Description, func(t *testing.T) {
					wrapped := confWrap(t, g.Schema)
					res := schema.Compile(schema.ToolInput, wrapped)
					gkey := file + "/" + g.Description
					if res.Schema == nil {
						groupsOut++
						refusedBy[res.Errors[0].Keyword]++
						want := schema.CodeUnsupported
						if _, ok := confValidationGroups[gkey]; ok {
							want = schema.CodeValidation
						}
						assert.Equal(t, want, res.Code(), "schema %s\nfindings %v", wrapped, res.Errors)
						if want == schema.CodeUnsupported {
							for _, f := range res.Errors {
								assert.Equal(t, schema.CodeUnsupported, f.Code, "a suite schema is legal JSON Schema: no VALIDATION finding\n%+v", f)
							}
						}
						return
					}
					groupsIn++
					_, listed := confValidationGroups[gkey]
					assert.False(t, listed, "%s compiles but is listed in confValidationGroups", gkey)
					for _, tc := range g.Tests {
						testsIn++
						key := gkey + "/" + tc.Description
						reason, expectFail := confExpectedFailures[key]
						seenFailures[key] = true
						instance := []byte(`{"v":` + string(tc.Data) + `}`)
						t.Run(tc.Description, func(t *testing.T) {
							got := validator.Validate(res.Schema, instance, validator.Options{})
							confCheckSplits(t, res.Schema, instance, got)
							switch {
							case expectFail:
								assert.NotEqual(t, tc.Valid, got.Valid(), "listed as an expected failure (%s) but passes: remove it", reason)
							case assert.Equal(t, tc.Valid, got.Valid(), "schema %s\ninstance %s\nfindings %v", wrapped, instance, got.Findings):
								testsPassing++
							}
						})
					}
				})
			}
		})
	}
	for key := range confExpectedFailures {
		assert.True(t, seenFailures[key], "expected failure %q is not a test inside the profile", key)
	}
	reasons := slices.Sorted(maps.Keys(refusedBy))
	var byReason []string
	for _, k := range reasons {
		byReason = append(byReason, fmt.Sprintf("%s=%d", k, refusedBy[k]))
	}
	t.Logf("suite groups: %d inside the profile (%d tests, %d passing, %d expected failures), %d refused (first finding: %s)",
		groupsIn, testsIn, testsPassing, len(confExpectedFailures), groupsOut, strings.Join(byReason, " "))
	assert.Equal(t, confGroupsInside, groupsIn, "groups inside the profile")
	assert.Equal(t, confTestsInside, testsIn, "tests inside the profile")
	assert.Equal(t, confGroupsRefused, groupsOut, "groups refused")
}

// confWrap drops the root $schema of the group's schema and wraps it as the
// property v of an object schema. A boolean schema stays boolean.
func confWrap(t *testing.T, raw json.RawMessage) []byte {
	s := bytes.TrimSpace(raw)
	if s[0] == '{' {
		var members map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(s, &members))
		delete(members, "$schema")
		var err error
		s, err = json.Marshal(members)
		require.NoError(t, err)
	}
	return []byte(`{"type":"object","properties":{"v":` + string(s) + `},"required":["v"]}`)
}

// confCheckSplits feeds instance one byte at a time and in every split into
// two pieces, and requires the whole-document findings each time.
func confCheckSplits(t *testing.T, s *schema.Schema, instance []byte, whole validator.Result) {
	t.Helper()
	v := validator.New(s, validator.Options{})
	for i := range instance {
		v.Write(instance[i : i+1])
	}
	assert.Equal(t, whole.Findings, v.Close().Findings, "one byte at a time")
	for cut := 1; cut < len(instance); cut++ {
		v.Reset()
		v.Write(instance[:cut])
		v.Write(instance[cut:])
		assert.Equal(t, whole.Findings, v.Close().Findings, "split at byte %d", cut)
	}
}

package format_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/format"
)

// The suite test runs the optional/format files of the
// JSON-Schema-Test-Suite (testdata/suite, see PROVENANCE.md there) for
// each dialect: every group's schema is {"format": F}, so each test's data
// must satisfy F exactly when the suite says valid. Non-string data must
// be valid whatever F is (the caller never asks a checker about it), and
// a format the suite calls unknown must be unknown to Lookup.

// suiteDialects maps the suite's directories to dialects.
var suiteDialects = map[string]format.Dialect{
	"draft4":       format.Draft4,
	"draft6":       format.Draft6,
	"draft7":       format.Draft7,
	"draft2019-09": format.Draft2019,
	"draft2020-12": format.Draft2020,
}

// suiteExpectedFailures lists "dialect/file/test description" cases whose
// verdict we do not follow, each with its reason. Empty: every case
// passes.
var suiteExpectedFailures = map[string]string{}

// suiteUnknownFormats are the formats of unknown.json, which no dialect
// defines.
var suiteUnknownFormats = map[string]bool{"unknown": true}

func TestSuite(t *testing.T) {
	t.Parallel()
	var assertions format.Assertions
	seenFailures := map[string]bool{}
	total := 0
	for dir, dialect := range suiteDialects {
		files, err := filepath.Glob(filepath.Join("testdata", "suite", dir, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files, "no suite files for %s", dir)
		for _, path := range files {
			file := filepath.Base(path)
			for _, group := range fixtures.ReadSuite(t, path) {
				var schema struct{ Format string }
				require.NoError(t, json.Unmarshal(group.Schema, &schema), path)
				name := schema.Format
				check, ok := assertions.Lookup(dialect, name)
				if suiteUnknownFormats[name] {
					assert.False(t, ok, "%s: Lookup(%s, %q) found a checker for a format no dialect defines", path, dialect, name)
					continue
				}
				require.True(t, ok, "%s: Lookup(%s, %q) found nothing", path, dialect, name)
				for _, tc := range group.Tests {
					key := dir + "/" + file + "/" + tc.Description
					total++
					var text string
					got := true // non-string data passes every format
					if tc.Data[0] == '"' {
						require.NoError(t, json.Unmarshal(tc.Data, &text), key)
						got = check(text)
					}
					if reason, expected := suiteExpectedFailures[key]; expected {
						seenFailures[key] = true
						assert.NotEqual(t, tc.Valid, got, "%s now passes; drop it from suiteExpectedFailures (%s)", key, reason)
						continue
					}
					assert.Equal(t, tc.Valid, got, "%s: %s %s", key, name, strings.TrimSpace(string(tc.Data)))
				}
			}
		}
	}
	for key := range suiteExpectedFailures {
		assert.True(t, seenFailures[key], "suiteExpectedFailures names %s, which the suite does not have", key)
	}
	assert.Greater(t, total, 2000, "suite cases run")
}

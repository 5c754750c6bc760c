package format_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/format"
)

// typicalValues is one realistic, valid value per format, as a tool call
// would carry it.
var typicalValues = []struct{ format, value string }{
	{"date-time", "2024-06-30T12:34:56.789+02:00"},
	{"date", "2024-06-30"},
	{"time", "12:34:56.789Z"},
	{"duration", "P1Y2M3DT4H5M6S"},
	{"email", "first.last@mail.example.com"},
	{"idn-email", "josé.garcía@correo.ejemplo.es"},
	{"hostname", "api.eu-west-1.example.com"},
	{"idn-hostname", "bücher.münchen.example"},
	{"ipv4", "192.168.100.200"},
	{"ipv6", "2001:db8:85a3::8a2e:370:7334"},
	{"uri", "https://api.example.test/v1/orders/1234/items?expand=lines&limit=50#top"},
	{"uri-reference", "../items/42?expand=lines"},
	{"iri", "https://例え.テスト/パス/ファイル?q=値#節"},
	{"iri-reference", "/パス/ファイル?q=値"},
	{"uri-template", "https://api.example.test/v1/{org}/repos{?page,per_page}"},
	{"json-pointer", "/definitions/a~1b/items/0"},
	{"relative-json-pointer", "1/foo/bar"},
	{"uuid", "b7c1f2d0-6a55-4f1e-9a55-2f1b6e1c0d3e"},
}

func TestTypicalValuesAreValid(t *testing.T) {
	t.Parallel()
	for _, tc := range typicalValues {
		check, ok := format.Assertions{}.Lookup(format.Draft2020, tc.format)
		require.True(t, ok, tc.format)
		assert.True(t, check(tc.value), "%s %q", tc.format, tc.value)
	}
}

// TestCheckersDoNotAllocate runs every format over its typical value and
// every string of its suite file, valid or not: none allocates, except
// idn-email on a domain that is not in NFC, which is normalized first.
// Not parallel (AllocsPerRun).
func TestCheckersDoNotAllocate(t *testing.T) {
	for _, tc := range typicalValues {
		check, _ := format.Assertions{}.Lookup(format.Draft2020, tc.format)
		values := append([]string{tc.value}, suiteStrings(t, tc.format)...)
		for _, value := range values {
			if tc.format == "idn-email" && strings.Contains(value, "\u0301") {
				continue // "user@cafe\u0301.com": the documented exception
			}
			allocs := testing.AllocsPerRun(20, func() { check(value) })
			assert.Zero(t, allocs, "%s %q", tc.format, value)
		}
	}
}

// suiteStrings returns the strings of the 2020-12 suite file of a format.
func suiteStrings(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "suite", "draft2020-12", name+".json"))
	require.NoError(t, err)
	var groups []struct {
		Tests []struct{ Data any } `json:"tests"`
	}
	require.NoError(t, json.Unmarshal(data, &groups))
	var out []string
	for _, group := range groups {
		for _, tc := range group.Tests {
			if s, ok := tc.Data.(string); ok {
				out = append(out, s)
			}
		}
	}
	require.NotEmpty(t, out, name)
	return out
}

// BenchmarkFormats checks each typical value beside utf8.ValidString on
// the same bytes, the least any checker of a string must do: compare the
// check/ and utf8/ sub-benchmarks' ns/op (or MB/s) within one run.
func BenchmarkFormats(b *testing.B) {
	for _, tc := range typicalValues {
		check, _ := format.Assertions{}.Lookup(format.Draft2020, tc.format)
		b.Run("check/"+tc.format, func(b *testing.B) {
			b.SetBytes(int64(len(tc.value)))
			b.ReportAllocs()
			for b.Loop() {
				if !check(tc.value) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run("utf8/"+tc.format, func(b *testing.B) {
			b.SetBytes(int64(len(tc.value)))
			b.ReportAllocs()
			for b.Loop() {
				if !utf8.ValidString(tc.value) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

package pattern_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/pattern"
)

// benchInputs are typical patterns on typical strings: whole-string
// checks, and searches through longer text with no match (the worst case
// for both: every byte is read).
var benchInputs = []struct {
	name, expr, text string
}{
	{"hostname", `^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`, "api-gateway-eu-west-1"},
	{"identifier", `^[\p{L}_][\p{L}\d_-]{0,63}$`, "Élan_vital-2026_näive"},
	{"date", `^\d{4}-\d{2}-\d{2}$`, "2026-12-01"},
	{"search1KB", `\b(?:ERROR|FATAL)\b`, strings.Repeat("all systems nominal; ", 48)},
	{"unicode10KB", `\p{Lu}{3}\d`, strings.Repeat("léger déjà vu, ça va 12 ", 420)},
}

// BenchmarkMatch compares Matcher.Write with regexp.MatchString (on the
// same expression and text, compiled once each) in one run: compare the
// ns/byte of the pattern/… and regexp/… sub-benchmarks of one input.
func BenchmarkMatch(b *testing.B) {
	for _, in := range benchInputs {
		p, err := pattern.Compile(in.expr, pattern.ECMA262, pattern.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		re := regexp.MustCompile(in.expr)
		text := []byte(in.text)
		want := re.Match(text)
		b.Run("pattern/"+in.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			var m pattern.Matcher
			for b.Loop() {
				m.Reset(p)
				m.Write(text)
				if m.Matched() != want {
					b.Fatal("wrong verdict")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(text)), "ns/byte")
		})
		b.Run("regexp/"+in.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if re.Match(text) != want {
					b.Fatal("wrong verdict")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(text)), "ns/byte")
		})
	}
}

// BenchmarkCompile measures compiling the benchmark patterns, beside
// regexp.Compile.
func BenchmarkCompile(b *testing.B) {
	for _, in := range benchInputs {
		b.Run("pattern/"+in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pattern.Compile(in.expr, pattern.ECMA262, pattern.Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("regexp/"+in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				regexp.MustCompile(in.expr)
			}
		})
	}
}

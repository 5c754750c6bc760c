package pattern_test

import (
	"fmt"

	"github.com/toolgate/toolgate/internal/pattern"
)

// A JSON Schema pattern is an unanchored ECMA-262 search with the u flag.
func ExampleCompile() {
	p, err := pattern.Compile(`^\p{Lu}\w*$`, pattern.ECMA262, pattern.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.MatchString("Élan_2"), p.MatchString("élan"))

	_, err = pattern.Compile(`(?<=\$)\d+`, pattern.ECMA262, pattern.Limits{})
	fmt.Println(err.(*pattern.Error).Kind)
	// Output:
	// true false
	// unsupported
}

// A Matcher rejects a streamed string at the first byte no completion can
// match, whatever the pieces it arrives in.
func ExampleMatcher() {
	p, err := pattern.Compile(`^[a-z0-9-]{1,63}$`, pattern.ECMA262, pattern.Limits{})
	if err != nil {
		panic(err)
	}
	var m pattern.Matcher
	m.Reset(p)
	fmt.Println(m.WriteString("api-ga"), m.WriteString("teway"), m.Matched())
	fmt.Println(m.WriteString("_eu"), m.Dead())
	// Output:
	// -1 -1 true
	// 0 true
}

// A Set runs all the patternProperties of one object at once, and tells
// which of them a member name matches.
func ExampleCompileSet() {
	set, err := pattern.CompileSet([]string{`^x-`, `_id$`, `^\d+$`}, pattern.ECMA262, pattern.Limits{})
	if err != nil {
		panic(err)
	}
	var m pattern.SetMatcher
	m.Reset(set)
	m.WriteString("x-user_id")
	matches := m.Matches()
	for i := matches.Next(0); i >= 0; i = matches.Next(i + 1) {
		fmt.Println(set.Expr(i))
	}
	// Output:
	// ^x-
	// _id$
}

// Valid checks JSON Schema's format "regex": any ECMA-262 pattern, even
// one that Compile cannot run.
func ExampleValid() {
	fmt.Println(pattern.Valid(`(?<=a+)b`, pattern.Limits{}))
	fmt.Println(pattern.Valid(`(?P<name>x)`, pattern.Limits{}) != nil)
	// Output:
	// <nil>
	// true
}

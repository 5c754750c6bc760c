package hostile

import (
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// The shapes of issue 9's findings 1, 4 and 5, and those found since, that
// the engine (or the store) must bound: work per argument byte, and what a
// compile or a finding may cost.

var oneOfBranchesEscapes = Shape{
	Name: "oneof-branches-escapes", Finding: 1, Owner: Engine, RPC: "Validate",
	Summary: "a `oneOf` of 10,000 `{\"type\":\"string\"}` branches (180 KB) against a 2 MB string of `\\n` escapes: 102 s of CPU",
	Generate: func() Request {
		return Request{Schema: object(`{"oneOf":[` + repeat(10_000, `{"type":"string"}`) + `]}`), Arguments: escapes()}
	},
}

// escapes is {"a": a 2 MB string of \n escapes}.
func escapes() []byte { return []byte(`{"a":"` + strings.Repeat(`\n`, 1<<20) + `"}`) }

var enumStrings = Shape{
	Name: "enum-strings", Finding: 1, Owner: Engine, RPC: "Validate",
	Summary: "an `enum` of 400,000 strings (2.8 MB) against 100,000 short items, all valid: 41 s",
	Generate: func() Request {
		return Request{
			Schema:    object(`{"type":"array","items":{"type":"string","enum":[` + list(400_000, base36) + `]}}`),
			Arguments: []byte(`{"a":[` + list(100_000, func(i int) string { return base36((i*7919 + 1) % 400_000) }) + `]}`),
		}
	},
}

// base36 is i as a quoted base-36 string.
func base36(i int) string { return strconv.Quote(strconv.FormatInt(int64(i), 36)) }

// millionChoices is a numeric enum of 0 to 999,999 (6.9 MB: send it with
// --max-message-bytes of 8 MiB or more).
func millionChoices(property string) []byte {
	return object(fmt.Sprintf(property, `"enum":[`+list(1_000_000, strconv.Itoa)+`]`))
}

var numericEnumNumber = Shape{
	Name: "numeric-enum-number", Finding: 1, Owner: Engine, RPC: "Validate",
	Summary: "a numeric `enum` of a million choices (6.9 MB; needs `--max-message-bytes` of 8 MiB) against one 10 KB number: 162 s",
	Generate: func() Request {
		return Request{
			Schema:    millionChoices(`{"type":"integer",%s}`),
			Arguments: []byte(`{"a":1` + strings.Repeat("0", 10<<10-1) + `}`),
		}
	},
}

var numericEnumArray = Shape{
	Name: "numeric-enum-array", Finding: 1, Owner: Engine, RPC: "Validate",
	Summary: "the million-choice numeric `enum` as array items, against 10 KB of 20-digit numbers: past 10 minutes",
	Generate: func() Request {
		return Request{
			Schema:    millionChoices(`{"type":"array","items":{"type":"integer",%s}}`),
			Arguments: []byte(`{"a":[` + repeat(10<<10/21, "12345678901234567890") + `]}`),
		}
	},
}

var nestedOneOf = Shape{
	Name: "nested-oneof", Finding: 1, Owner: Engine, RPC: "Validate",
	Summary: "15 nested levels of a `oneOf` of two object branches (3.4 MB), so 2^15 machines at the innermost value, against 807 bytes: 2.4 s",
	Generate: func() Request {
		node := `{"type":"string"}`
		for range 15 {
			branch := `{"type":"object","properties":{"a":` + node + `}}`
			node = `{"oneOf":[` + branch + `,` + branch + `]}`
		}
		const levels = 16 // "a" members down to the string
		filler := 807 - levels*len(`{"a":}`) - len(`""`)
		return Request{
			Schema:    object(node),
			Arguments: []byte(strings.Repeat(`{"a":`, levels) + `"` + strings.Repeat("x", filler) + `"` + strings.Repeat("}", levels)),
		}
	},
}

// oneOfIntegers is an object whose "a" is an array of items that must
// match one of n integer branches: every string item fails every branch,
// and the message says why for each.
func oneOfIntegers(n int) []byte {
	return object(`{"type":"array","items":{"oneOf":[` + repeat(n, `{"type":"integer"}`) + `]}}`)
}

// stringItems is {"a": [n strings]}.
func stringItems(n int) []byte { return []byte(`{"a":[` + repeat(n, `"x"`) + `]}`) }

var oneOfMessage = Shape{
	Name: "oneof-message", Finding: 4, Owner: Engine, RPC: "Validate",
	Summary: "407 bytes of arguments (100 string items) against a `oneOf` of 200,000 branches (3.8 MB): the message lists every branch's reason, a 929 MB response and a 3.3 GB server peak",
	Generate: func() Request {
		return Request{Schema: oneOfIntegers(200_000), Arguments: stringItems(100)}
	},
}

var storeCompiledSize = Shape{
	Name: "store-compiled-size", Finding: 5, Owner: Store, RPC: "CompileSchema",
	Summary: "100 distinct 3.6 MB schemas of string properties: `--store-bytes` counts canonical JSON, a compiled schema holds 13.8× that, and the server reached 7.7 GB under the default 256 MiB",
	Generate: func() Request {
		return Request{Schemas: func(yield func([]byte) bool) {
			for i := range 100 {
				props := list(3_600_000/len(`"p00_000000":{"type":"string"},`), func(k int) string {
					return fmt.Sprintf(`"p%02d_%06d":{"type":"string"}`, i, k)
				})
				if !yield([]byte(`{"type":"object","properties":{` + props + `}}`)) {
					return
				}
			}
		}}
	},
}

// longName is a member name of n bytes.
func longName(n int) string { return strings.Repeat("n", n) }

var duplicateMemberPointers = Shape{
	Name: "duplicate-member-pointers", Finding: 0, Owner: Engine, RPC: "CompileSchema",
	Summary: "a schema whose 1 MB property name holds an object repeating one member 300,000 times: each repetition records its object's pointer, with the name in it, so 300 GB (220 KB of this shape allocated 2 GB and took 8 s)",
	Generate: func() Request {
		return Request{Schema: []byte(`{"type":"object","properties":{"` + longName(1<<20) + `":{` + repeat(300_001, `"x":0`) + `}}}`)}
	},
}

var multipleOfDigits = Shape{
	Name: "multipleof-digits", Finding: 0, Owner: Engine, RPC: "Validate",
	Summary: "a `multipleOf` of 100,001 significant digits against 20 items `1e99999999` (227 bytes): each digit, and each exponent, costs work that grows with the divisor, 3.7 s in all (16 ms a byte)",
	Generate: func() Request {
		return Request{
			Profile:   "JSON_SCHEMA",
			Schema:    object(`{"type":"array","items":{"multipleOf":` + strings.Repeat("3", 100_000) + `7}}`),
			Arguments: []byte(`{"a":[` + repeat(20, "1e99999999") + `]}`),
		}
	},
}

var patternFlood = Shape{
	Name: "pattern-flood", Finding: 0, Owner: Engine, RPC: "CompileSchema",
	Summary: "a JSON Schema of 20,000 distinct patterns `a{999}-N` (1 MB), each up to the pattern compiler's own limits (about 13 ms to build 2 MiB of automaton and be refused): 1,000 of them took 13 s, the whole shape about 4.5 minutes of one request",
	Generate: func() Request {
		return Request{Profile: "JSON_SCHEMA", Schema: []byte(`{"type":"object","properties":{` +
			list(20_000, func(i int) string { return fmt.Sprintf(`"p%d":{"type":"string","pattern":"a{999}-%d"}`, i, i) }) + `}}`)}
	},
}

// longPointerRequest is a property of a name of n bytes that holds an
// array of strings, and arguments with items wrong ones: every finding
// has the name in its schema path, its instance path and its message.
func longPointerRequest(n, items int) Request {
	name := longName(n)
	return Request{
		Schema:    []byte(`{"type":"object","properties":{"` + name + `":{"type":"array","items":{"type":"string"}}}}`),
		Arguments: []byte(`{"` + name + `":[` + repeat(items, "1") + `]}`),
	}
}

var longPointers = Shape{
	Name: "long-pointers", Finding: 4, Owner: Engine, RPC: "Validate",
	Summary:  "a 1 MB property name and 100 wrong items under it: 100 findings, each with the name in both pointers and its message, 300 MB to format (the answer itself is bounded by the server)",
	Generate: func() Request { return longPointerRequest(1<<20, 100) },
}

// seq is a sequence of n pieces made by piece.
func seq(n int, piece func(i int) []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for i := range n {
			if !yield(piece(i)) {
				return
			}
		}
	}
}

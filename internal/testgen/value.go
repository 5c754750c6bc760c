package testgen

import (
	"math/big"
	"math/rand/v2"
	"strings"
)

// A JSON value in this package is one of:
//
//	nil         null
//	bool        true, false
//	string      a string; it may hold bytes that are not UTF-8 (see Hazard)
//	*big.Rat    a number, always a finite decimal (see Num)
//	[]any       an array
//	Object      an object, members in document order
//
// Values are trees: no two places share a slice or a *big.Rat, so a value may
// be changed in place once built (see Clone).

// Object is a JSON object with its members in document order. Generated
// objects never repeat a name unless Hazard put a duplicate in.
type Object []Member

// Member is one name/value pair of an Object.
type Member struct {
	Name  string
	Value any
}

// Get returns the value of the first member called name.
func (o Object) Get(name string) (any, bool) {
	for _, m := range o {
		if m.Name == name {
			return m.Value, true
		}
	}
	return nil, false
}

// Num returns the number written as text in JSON number syntax (or anything
// big.Rat.SetString accepts as a decimal). It panics on other text: it is
// meant for literals.
func Num(text string) *big.Rat {
	r, ok := new(big.Rat).SetString(text)
	if !ok || !isDecimal(r) {
		panic("testgen: not a decimal number: " + text)
	}
	return r
}

// Clone returns a deep copy of v.
func Clone(v any) any {
	switch v := v.(type) {
	case *big.Rat:
		return new(big.Rat).Set(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = Clone(x)
		}
		return out
	case Object:
		out := make(Object, len(v))
		for i, m := range v {
			out[i] = Member{m.Name, Clone(m.Value)}
		}
		return out
	}
	return v
}

// kindOf names the JSON kind of v: "null", "boolean", "string", "number",
// "array" or "object".
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case *big.Rat:
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

// Pools of interesting literals. Names and strings include prefixes of each
// other, non-ASCII text, characters that JSON must escape and characters
// that JSON pointers must escape.
var (
	namePool = []string{
		"a", "ab", "abc", "b", "id", "name", "query", "limit", "options", "file_path",
		"", "é", "e\u0301", "日本", "😀", "a/b", "~0", "x y", `"q"`, `back\slash`, "tab\t", "nul\x00",
	}
	stringPool = []string{
		"", "a", "ab", "abc", "A", "add", "update", "delete", "é", "e\u0301", "😀", "日本語",
		"line\nbreak", `quote"`, "slash/", `\`, "\x00", "\x1f", "\u2028", "\uffff", "\U0010ffff",
	}
	numberPool = []string{
		"0", "1", "2", "-1", "-5", "0.1", "0.5", "1.5", "-1.5", "2.5E-3", "1e2", "3.14159", "1e-7",
		"9007199254740993", "123456789012345678901234567890", "-18446744073709551615", "1e21",
	}
)

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// chance reports true with probability p.
func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

func randString(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return pick(r, stringPool) + pick(r, stringPool)
	case 1:
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteByte(byte('a' + r.IntN(26)))
		}
		return b.String()
	}
	return pick(r, stringPool)
}

func randNumber(r *rand.Rand, integral bool) *big.Rat {
	var x *big.Rat
	switch r.IntN(3) {
	case 0:
		x = Num(pick(r, numberPool))
	case 1:
		x = new(big.Rat).SetInt64(int64(r.IntN(2001) - 1000))
	default:
		x = big.NewRat(int64(r.IntN(20001)-10000), 100)
	}
	if integral {
		x = ceil(x)
	}
	return x
}

// randValue returns any JSON value, nesting at most depth containers.
func randValue(r *rand.Rand, depth int) any {
	n := 5
	if depth > 0 {
		n = 7
	}
	switch r.IntN(n) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return randString(r)
	case 3, 4:
		return randNumber(r, r.IntN(2) == 0)
	case 5:
		a := make([]any, r.IntN(3))
		for i := range a {
			a[i] = randValue(r, depth-1)
		}
		return a
	}
	var o Object
	for range r.IntN(3) {
		o = addMember(o, pick(r, namePool), randValue(r, depth-1))
	}
	return o
}

// addMember appends name to o unless o already has it.
func addMember(o Object, name string, v any) Object {
	if _, ok := o.Get(name); ok {
		return o
	}
	return append(o, Member{name, v})
}

// ceil returns the least integer ≥ x.
func ceil(x *big.Rat) *big.Rat {
	q := new(big.Int).Div(x.Num(), x.Denom()) // Euclidean: floor(x), the denominator being positive
	if !x.IsInt() {
		q.Add(q, big.NewInt(1))
	}
	return new(big.Rat).SetInt(q)
}

// pow10 returns 10^e for any integer e.
func pow10(e int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
	if e < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func add(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(x, y) }

// isDecimal reports whether x has a finite decimal expansion.
func isDecimal(x *big.Rat) bool {
	_, _, ok := decimalOf(x)
	return ok
}

// decimalOf returns digits and exp with |x| = digits × 10^exp, digits having
// no leading or trailing zeros ("0" for zero).
func decimalOf(x *big.Rat) (digits string, exp int, ok bool) {
	num := new(big.Int).Abs(x.Num())
	den := x.Denom()
	ten := big.NewInt(10)
	for exp = 0; exp > -400; exp-- {
		if new(big.Int).Mod(num, den).Sign() == 0 {
			break
		}
		num.Mul(num, ten)
	}
	if exp == -400 {
		return "", 0, false
	}
	digits = new(big.Int).Quo(num, den).String()
	if digits == "0" {
		return "0", 0, true
	}
	for strings.HasSuffix(digits, "0") {
		digits, exp = digits[:len(digits)-1], exp+1
	}
	return digits, exp, true
}

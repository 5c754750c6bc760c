package format_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/format"
)

// jsonPointers are RFC 6901 pointers, with the §5 examples.
var jsonPointers = []formatCase{
	valid("whole document", ""),
	valid("RFC 6901 §5 /foo", "/foo"),
	valid("RFC 6901 §5 /foo/0", "/foo/0"),
	valid("RFC 6901 §5 empty key", "/"),
	valid("RFC 6901 §5 /a~1b", "/a~1b"),
	valid("RFC 6901 §5 /c%d", "/c%d"),
	valid("RFC 6901 §5 /m~0n", "/m~0n"),
	valid("non-ASCII", "/ü/😀"),
	valid("control characters", "/\x00\n"),
	invalid("no leading slash", "foo"),
	invalid("URI fragment form", "#/foo"),
	invalid("tilde at the end", "/foo~"),
	invalid("tilde before 2", "/~2"),
	invalid("tilde before slash", "/~/"),
	invalid("invalid UTF-8", "/\xff"),
	invalid("invalid UTF-8 before a tilde escape", "/\xff~0"),
}

func TestJSONPointer(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft6, "json-pointer", jsonPointers)
}

func TestRelativeJSONPointer(t *testing.T) {
	t.Parallel()
	cases := []formatCase{
		valid("draft §5 example 0", "0"),
		valid("draft §5 example 1/0", "1/0"),
		valid("draft §5 example 2/highly/nested/objects", "2/highly/nested/objects"),
		valid("draft §5 example 0#", "0#"),
		valid("draft §5 example 1#", "1#"),
		valid("multi-digit", "10/a"),
		invalid("empty", ""),
		invalid("leading zero", "01"),
		invalid("pointer alone", "/a"),
		invalid("hash then pointer", "0#/a"),
		invalid("two hashes", "0##"),
		invalid("bad pointer", "0/~2"),
		invalid("sign", "+1"),
		invalid("non-ASCII digit", "٠"),
	}
	for _, dialect := range []format.Dialect{format.Draft7, format.Draft2019, format.Draft2020} {
		t.Run(dialect.String(), func(t *testing.T) {
			t.Parallel()
			checkFormat(t, dialect, "relative-json-pointer", cases)
		})
	}
	checkFormat(t, format.Draft2020, "relative-json-pointer", []formatCase{
		valid("index forward", "0+1"),
		valid("index back with a pointer", "1-1/a"),
		valid("index with hash", "0+10#"),
		invalid("index zero", "0+0"),
		invalid("index with a leading zero", "0+01"),
		invalid("sign without digits", "0+"),
		invalid("two signs", "0+-1"),
		invalid("index before the integer", "+1"),
	})
	checkFormat(t, format.Draft2019, "relative-json-pointer", []formatCase{
		invalid("index manipulation is 2020-12's", "0+1"),
	})
}

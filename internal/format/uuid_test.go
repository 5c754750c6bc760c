package format_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/format"
)

func TestUUID(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft2019, "uuid", []formatCase{
		valid("RFC 4122 §3 example", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
		valid("nil UUID", "00000000-0000-0000-0000-000000000000"),
		valid("max UUID", "ffffffff-ffff-ffff-ffff-ffffffffffff"),
		valid("upper case", "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"),
		invalid("braces", "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}"),
		invalid("URN", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
		invalid("no hyphens", "f81d4fae7dec11d0a76500a0c91e6bf6"),
		invalid("hyphen moved", "f81d4fa-e7dec-11d0-a765-00a0c91e6bf6"),
		invalid("short", "f81d4fae-7dec-11d0-a765-00a0c91e6bf"),
		invalid("long", "f81d4fae-7dec-11d0-a765-00a0c91e6bf60"),
		invalid("non-hex", "g81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
		invalid("empty", ""),
	})
}

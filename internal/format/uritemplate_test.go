package format_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/format"
)

func TestURITemplate(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft6, "uri-template", []formatCase{
		valid("level 1", "http://example.com/~{username}/"),
		valid("level 2 reserved", "{+path}/here"),
		valid("level 2 fragment", "X{#var}"),
		valid("level 3 operators", "{.x,y}{/a,b}{;x,y}{?x,y}{&z}"),
		valid("level 4 prefix and explode", "{var:3}{/list*}{?keys*}"),
		valid("prefix 9999", "{v:9999}"),
		valid("dotted and pct-encoded names", "{a.b%20c_1}"),
		valid("literal sub-delims and brackets", "!#$&()*+,-./:;=?@[]_~"),
		valid("literal pct-encoding", "%7Efoo"),
		valid("literal non-ASCII", "/ü/{x}"),
		valid("literal private use", "\ue000{x}"),
		valid("empty", ""),
		invalid("reserved operator =", "{=x}"),
		invalid("reserved operator ,", "{,x}"),
		invalid("reserved operator !", "{!x}"),
		invalid("reserved operator @", "{@x}"),
		invalid("reserved operator |", "{|x}"),
		invalid("two operators", "{+#x}"),
		invalid("operator alone", "{+}"),
		invalid("empty expression", "{}"),
		invalid("unclosed", "{x"),
		invalid("stray closing brace", "x}"),
		invalid("nested braces", "{a{b}}"),
		invalid("prefix and explode", "{x:3*}"),
		invalid("prefix 10000", "{x:10000}"),
		invalid("prefix 0", "{x:0}"),
		invalid("empty prefix", "{x:}"),
		invalid("leading dot in a name", "{.}"),
		invalid("trailing dot in a name", "{a.}"),
		invalid("double dot in a name", "{a..b}"),
		invalid("hyphen in a name", "{a-b}"),
		invalid("space in a name", "{a b}"),
		invalid("bad pct-encoding in a name", "{%zz}"),
		invalid("literal space", "a b"),
		invalid("literal double quote", `a"b`),
		invalid("literal angle bracket", "a<b"),
		invalid("literal backslash", `a\b`),
		invalid("literal caret", "a^b"),
		invalid("literal backquote", "a`b"),
		invalid("literal pipe", "a|b"),
		invalid("lone percent", "100%"),
		invalid("control character", "a\nb"),
		invalid("noncharacter", "a\ufffeb"),
		invalid("bidirectional formatting character", "a\u202eb"),
		invalid("invalid UTF-8", "a\xffb"),
	})
}

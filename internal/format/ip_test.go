package format_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/format"
)

func TestIPv4(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft4, "ipv4", []formatCase{
		valid("zeros", "0.0.0.0"),
		valid("broadcast", "255.255.255.255"),
		valid("two-digit and three-digit octets", "10.99.100.249"),
		invalid("octet 256", "1.2.3.256"),
		invalid("leading zero", "1.2.3.04"),
		invalid("double zero", "00.1.2.3"),
		invalid("four-digit octet", "1.2.3.0004"),
		invalid("three parts", "1.2.3"),
		invalid("five parts", "1.2.3.4.5"),
		invalid("empty part", "1..3.4"),
		invalid("trailing dot", "1.2.3.4."),
		invalid("hex", "0x1.2.3.4"),
		invalid("integer", "16909060"),
		invalid("CIDR", "1.2.3.4/8"),
		invalid("port", "1.2.3.4:80"),
		invalid("space", "1.2.3.4 "),
		invalid("non-ASCII digit", "1.2.3.٤"),
		invalid("empty", ""),
	})
}

func TestIPv6(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft4, "ipv6", []formatCase{
		valid("full", "2001:0db8:0000:0000:0000:ff00:0042:8329"),
		valid("compressed", "2001:db8::ff00:42:8329"),
		valid("loopback", "::1"),
		valid("unspecified", "::"),
		valid("elision at the end", "fe80::"),
		valid("elision of one group", "1:2:3:4:5:6:7::"),
		valid("elision of one group in the middle", "1:2:3::5:6:7:8"),
		valid("upper-case hex", "FE80::ABCD"),
		valid("IPv4-mapped", "::ffff:192.0.2.1"),
		valid("IPv4 after six groups", "1:2:3:4:5:6:192.0.2.1"),
		valid("IPv4 after an elision", "1::192.0.2.1"),
		invalid("nine groups", "1:2:3:4:5:6:7:8:9"),
		invalid("seven groups", "1:2:3:4:5:6:7"),
		invalid("eight groups and an elision", "1:2:3:4::5:6:7:8"),
		invalid("two elisions", "1::2::3"),
		invalid("triple colon", "1:::2"),
		invalid("leading single colon", ":1:2:3:4:5:6:7"),
		invalid("trailing single colon", "1:2:3:4:5:6:7:"),
		invalid("five hex digits", "1:2:3:4:5:6:7:12345"),
		invalid("IPv4 and seven groups", "1:2:3:4:5:6:7:192.0.2.1"),
		invalid("IPv4 not last", "::192.0.2.1:1"),
		invalid("IPv4 with a leading zero", "::ffff:192.0.2.01"),
		invalid("IPv4 alone", "192.0.2.1"),
		invalid("zone", "fe80::1%eth0"),
		invalid("prefix", "2001:db8::/32"),
		invalid("brackets", "[::1]"),
		invalid("non-hex", "::g"),
		invalid("empty", ""),
	})
}

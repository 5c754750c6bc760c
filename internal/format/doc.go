// Package format checks strings against the standard formats of JSON
// Schema (the "format" keyword, draft-04 to 2020-12) as pure functions.
// The engine asks Assertions.Lookup for a format's Checker when it
// compiles a schema with format assertion on, and calls it at the end of
// each string value; it never calls a checker for other JSON types.
//
// Each format follows the specification the dialect cites, checked
// against the JSON-Schema-Test-Suite's optional/format tests for every
// dialect (testdata/suite):
//
//   - date-time, date, time: RFC 3339 §5.6 date-time, full-date and
//     full-time ("T" and "Z" in either case, fractions of any length, an
//     offset required). A leap second (second 60) is accepted on any day
//     but only as 23:59:60 UTC once the offset is taken off (§5.7); which
//     days had one is not checked.
//   - duration (2019-09 on): RFC 3339 Appendix A, so weeks stand alone,
//     components keep their order without gaps, designators are upper
//     case as in ISO 8601, and there are no fractions or signs.
//   - email: RFC 5321 §4.1.2 Mailbox (local part of at most 64 octets,
//     host name or IPv4/IPv6 address literal, whose IPv4 octets are
//     §4.1.3 Snums and so may have leading zeros, unlike format ipv4's).
//     draft-04 to draft-07 cite RFC 5322 addr-spec; its looser domain
//     syntax is not followed, as RFC 5322 §3.4.1 defers to RFC 5321
//     there, and neither are its comments, folding white space and
//     obsolete forms.
//   - idn-email (draft-07 on): RFC 6531, which admits any non-ASCII
//     character in the local part and U-labels in the domain. The domain
//     is normalized to NFC first, since RFC 6532 §3.1 only recommends NFC.
//   - hostname: RFC 1123 §2.1 labels (1-63 octets, 253 in all, no final
//     dot), each "xn--" label checked as an A-label (RFC 5890, 5891;
//     ASCII case ignored, as in DNS). The
//     draft-04 and draft-06 editions follow RFC 1034 §3.1 as those drafts
//     cite it: a label starts with a letter, and Punycode is not decoded.
//   - idn-hostname (draft-07 on): IDNA2008 without mapping: U-labels in
//     NFC whose code points are PVALID under RFC 5892 (tables derived from
//     Unicode 15.0.0 in idna_tables.go) or meet their CONTEXTJ/CONTEXTO
//     rule, the hyphen and combining-mark rules of RFC 5891 §4.2.3, the
//     Bidi rule of RFC 5893 on every label of a name holding
//     right-to-left text, and A-labels that decode to such U-labels and
//     encode back to themselves. "。", "．" and "｡" separate labels as
//     "." does (RFC 3490 §3.1), as the suite expects.
//   - ipv4: RFC 2673 §3.2 dotted quad with RFC 3986 dec-octets, so no
//     leading zeros. ipv6: RFC 4291 §2.2 text forms, without zone,
//     prefix or brackets.
//   - uri, uri-reference: RFC 3986. iri, iri-reference (draft-07 on): RFC
//     3987, which adds ucschar (and iprivate in the query) and keeps out
//     the bidirectional formatting characters of its §4.1.
//   - uri-template (draft-06 on): RFC 6570 at any of its levels 1-4; the
//     operators its §2.2 reserves belong to no level and are refused. The
//     apostrophe is a literal, as the suite has it, though the RFC's ABNF
//     omits it; RFC 3987's bidirectional formatting characters are not.
//   - json-pointer (draft-06 on): RFC 6901. relative-json-pointer
//     (draft-07 on): draft-handrews-relative-json-pointer-01; 2020-12
//     cites draft-bhutton-relative-json-pointer-00, which adds an index
//     manipulation ("0+1", "2-1/a").
//   - uuid (2019-09 on): the RFC 4122 string form, any version or variant.
//   - regex (draft-07 on): ECMA-262, checked by the function the engine
//     sets as Assertions.Regex; this package parses no regular
//     expressions.
//
// "(draft-07 on)" names the dialect whose specification adds a format. An
// older dialect asserts it too, as its first edition reads: a schema
// asserting a format is asking for that format's meaning, whichever draft
// it names in $schema (draft-07 "uuid" is common: zod-to-json-schema and
// the MCP TypeScript SDK write it).
//
// Text that is not valid UTF-8 satisfies no format. Every checker runs in
// time linear in its input (IDNA work is bounded per label by the 63
// octets of a DNS label) and allocates nothing, with two exceptions that
// take golang.org/x/text's full NFC check: idn-email on a domain not in
// NFC, and an IDN label holding a code point that may compose with the
// one before it (NFC_Quick_Check=Maybe, such as a combining accent).
package format

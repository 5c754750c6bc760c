package validator

import "github.com/toolgate/toolgate/internal/schema"

// metaChunk is how many bytes of a schema document the meta-schema check
// reads between two looks at whether its compile was given up: some
// 1–2 ms of work.
const metaChunk = 32 << 10

// The JSON Schema profile checks every schema against its meta-schema with
// this validator.
func init() { schema.SetMetaValidator(metaValidate) }

// metaValidate is the schema.MetaValidator: it validates doc against meta,
// metaChunk bytes at a time, and gives up before the next chunk once
// stopped says so.
func metaValidate(meta *schema.Schema, doc []byte, stopped func() bool) []schema.Finding {
	v := get(meta, Options{MaxDepth: schema.DefaultSchemaDepth + 1})
	defer put(v)
	for len(doc) > 0 && !stopped() {
		n := min(len(doc), metaChunk)
		v.Write(doc[:n])
		doc = doc[n:]
	}
	return append([]schema.Finding(nil), v.Close().Findings...)
}

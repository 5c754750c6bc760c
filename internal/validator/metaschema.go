package validator

import "github.com/toolgate/toolgate/internal/schema"

// The JSON Schema profile checks every schema against its meta-schema with
// this validator (see schema.SetMetaValidator).
func init() {
	schema.SetMetaValidator(func(meta *schema.Schema, doc []byte) []schema.Finding {
		return Validate(meta, doc, Options{MaxDepth: schema.DefaultSchemaDepth + 1}).Findings
	})
}

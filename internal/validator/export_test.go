package validator

// MetaValidate is the meta-schema check the JSON Schema profile uses, and
// MetaChunk the bytes it reads between two looks at whether to stop.
var MetaValidate, MetaChunk = metaValidate, metaChunk

// Recycled is how many recycled evaluations v keeps, and Put returns v to
// the pool as Validate does.
func Recycled(v *Validator) int { return len(v.free) }

// Put is put.
var Put, KeptFreeEvals = put, keptFreeEvals

// ValidUTF8 is validUTF8.
var ValidUTF8 = validUTF8

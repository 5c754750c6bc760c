package validator

// MetaValidate is the meta-schema check the JSON Schema profile uses, and
// MetaChunk the bytes it reads between two looks at whether to stop.
var MetaValidate, MetaChunk = metaValidate, metaChunk

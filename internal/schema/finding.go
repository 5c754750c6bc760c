package schema

// Code classifies a finding. The zero value means "no error".
type Code uint8

const (
	// CodeNone marks the absence of an error.
	CodeNone Code = iota
	// CodeUnsupported means the schema uses something outside the profile:
	// legal JSON Schema that this subset cannot honour.
	CodeUnsupported
	// CodeValidation means a schema is malformed, or arguments do not satisfy
	// a supported constraint (or are not acceptable JSON).
	CodeValidation
	// CodeNotFound means a stream call was not validated: the handle its
	// tool is bound to is not held here (keyword "handle").
	CodeNotFound
)

// String returns the code's stable name.
func (c Code) String() string {
	switch c {
	case CodeUnsupported:
		return "UNSUPPORTED_CAPABILITY"
	case CodeValidation:
		return "VALIDATION"
	case CodeNotFound:
		return "NOT_FOUND"
	default:
		return "NONE"
	}
}

// Finding is one problem with a schema or with arguments. Code, Keyword and
// the two paths are the stable part that callers switch on; Message is prose
// for people and models and may change.
type Finding struct {
	// Code is CodeUnsupported or CodeValidation.
	Code Code
	// Keyword names the rule: a schema keyword ("enum", "required"), or
	// "json" for problems with the JSON text itself.
	Keyword string
	// SchemaPath is an RFC 6901 pointer into the schema.
	SchemaPath string
	// InstancePath is an RFC 6901 pointer into the arguments; empty for
	// schema findings and for the arguments' root.
	InstancePath string
	// Message is one complete sentence fit to hand back to a model.
	Message string
	// Offset is the byte offset in the arguments at which the finding was
	// detected, or -1 when it does not apply (schema findings).
	Offset int64
}

// Summarize returns the code that describes a list of findings as a whole:
// CodeNone for an empty list, CodeUnsupported if any finding is unsupported,
// and CodeValidation otherwise.
func Summarize(findings []Finding) Code {
	code := CodeNone
	for _, f := range findings {
		if f.Code == CodeUnsupported {
			return CodeUnsupported
		}
		code = f.Code
	}
	return code
}

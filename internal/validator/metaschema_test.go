package validator_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestMetaValidateStops: the meta-schema check looks at whether its
// compile was given up before each chunk of the document, and reads no
// chunk after it was: the document then ends where it stopped reading.
func TestMetaValidateStops(t *testing.T) {
	t.Parallel()
	meta := compileFor(t, schema.JSONSchema, `{"type":"object","additionalProperties":{"type":"string"}}`)
	doc := []byte(`{"a":"` + strings.Repeat("x", 3*validator.MetaChunk) + `"}`)
	looks := 0
	never := func() bool { looks++; return false }
	assert.Empty(t, validator.MetaValidate(meta, doc, never), "the whole document is valid")
	assert.Equal(t, 4, looks, "one look before each of its four chunks")

	looks = 0
	afterTwo := func() bool { looks++; return looks > 2 }
	found := validator.MetaValidate(meta, doc, afterTwo)
	require.NotEmpty(t, found)
	assert.Equal(t, 3, looks, "no look after the one that stops")
	assert.Equal(t, int64(2*validator.MetaChunk), found[0].Offset, "two chunks read: the document broke off there")
}

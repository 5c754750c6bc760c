package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/schema"
)

func TestCutPointer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, p string
		n       int
		want    string
	}{
		{"short enough", "/a/b", 4, "/a/b"},
		{"to the parent", "/a/bc", 4, "/a"},
		{"a cut at a slash keeps the ancestor", "/ab/c", 3, "/ab"},
		{"escapes stay whole", "/a~1b/c~0d", 6, "/a~1b"},
		{"to the root", "/abcdef", 3, ""},
		{"the root stays", "", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, c.want, schema.CutPointer(c.p, c.n))
		})
	}
}

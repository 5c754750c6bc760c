package provider_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/provider"
)

// TestKeysClaim: every key is given out once; a key wanted again gets the
// first free suffix, past keys given out for other reasons (one wanted as
// it is that spells a suffixed one), and the tries count the keys passed.
func TestKeysClaim(t *testing.T) {
	var k provider.Keys
	for _, step := range []struct {
		want, key string
		tries     int
	}{
		{"output/0", "output/0", 1},
		{"output/0", "output/0#2", 1},
		{"output/0#3", "output/0#3", 1}, // spelled like the next suffix
		{"output/0", "output/0#4", 2},   // starts after #2, passes the taken #3
		{"output/1", "output/1", 1},
		{"output/0", "output/0#5", 1},
		{"output/0#2", "output/0#2#2", 2}, // a suffixed key wanted again is a key like any other
	} {
		key, tries := k.Claim(step.want)
		assert.Equal(t, step.key, key, "Claim(%q)", step.want)
		assert.Equal(t, step.tries, tries, "Claim(%q)'s tries", step.want)
	}
}

package store_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/store"
)

func TestHandle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		profile   string
		canonical string
		want      string
	}{
		{
			// printf 'tool_input\0{"type":"object"}' | sha256sum
			name:      "tool input object",
			profile:   "tool_input",
			canonical: `{"type":"object"}`,
			want:      "tg1_86d79dd5bb1e48262ec4a00cfa68b40860adf9c6c86900331fb44a05421a1904",
		},
		{
			// printf 'output_bindable\0{}' | sha256sum
			name:      "output bindable empty",
			profile:   "output_bindable",
			canonical: `{}`,
			want:      "tg1_9a8cf320ba55e8128029a4d0842b8c13deddf3d385d2487fd58058c0fd0c5abb",
		},
		{
			// printf '\0' | sha256sum
			name: "all empty",
			want: "tg1_6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := store.Handle(tt.profile, []byte(tt.canonical))
			assert.Equal(t, tt.want, got)
			assert.Len(t, got, store.HandleLen)
			assert.True(t, store.IsHandle(got))
		})
	}
}

func TestHandleSeparatesProfileFromSchema(t *testing.T) {
	t.Parallel()
	// Without the 0 separator these pairs would hash the same bytes.
	assert.NotEqual(t, store.Handle("ab", []byte("c")), store.Handle("a", []byte("bc")))
	assert.NotEqual(t, store.Handle("tool_input", []byte("{}")), store.Handle("output_bindable", []byte("{}")))
}

func TestIsHandle(t *testing.T) {
	t.Parallel()
	valid := store.Handle("tool_input", []byte("{}"))
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"computed", valid, true},
		{"all zero digits", store.HandlePrefix + strings.Repeat("0", 64), true},
		{"empty", "", false},
		{"prefix only", store.HandlePrefix, false},
		{"no prefix", valid[len(store.HandlePrefix):], false},
		{"other version", "tg2_" + valid[len(store.HandlePrefix):], false},
		{"upper case hex", store.HandlePrefix + strings.ToUpper(valid[len(store.HandlePrefix):]), false},
		{"short", valid[:len(valid)-1], false},
		{"long", valid + "0", false},
		{"non hex digit", valid[:len(valid)-1] + "g", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, store.IsHandle(tt.in))
		})
	}
}

func BenchmarkHandle(b *testing.B) {
	canonical := []byte(`{"properties":{"city":{"type":"string"},"days":{"minimum":1,"type":"integer"}},"required":["city"],"type":"object"}`)
	b.SetBytes(int64(len(canonical)))
	b.ReportAllocs()
	for b.Loop() {
		_ = store.Handle("tool_input", canonical)
	}
}

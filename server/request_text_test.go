package server_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/benchdoc"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/server"
)

// editRequest compiles the edit_file schema on s and returns a Validate
// request by its handle for a valid call of size bytes.
func editRequest(tb testing.TB, s *server.Service, size int) *toolgatev1.ValidateRequest {
	tb.Helper()
	text, err := benchdoc.Schema(fixtures.RepoRoot(tb))
	require.NoError(tb, err)
	c, err := s.CompileSchema(context.Background(), compileJSON(string(text)))
	require.NoError(tb, err)
	require.NotEmpty(tb, c.GetHandle())
	return &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Handle{Handle: c.GetHandle()},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: string(benchdoc.Sized(size))},
	}
}

// TestRequestTextIsReadInPlace: Validate reads arguments_json, and
// CompileSchema reads schema_json, where the decoded request holds them,
// without a copy. Ten calls with 1 MiB of that text allocate less than one
// copy would: Validate by handle, and CompileSchema of a schema seen
// before (the compile cache's hit, which an inline Validate takes too).
// (Not parallel: the test reads the process's allocation count.)
func TestRequestTextIsReadInPlace(t *testing.T) {
	s := server.NewService(server.Options{})
	validate := editRequest(t, s, 1<<20)
	big := compileJSON(`{"type":"object","description":"` + strings.Repeat("x", 1<<20) + `"}`)
	first, err := s.CompileSchema(context.Background(), big)
	require.NoError(t, err)
	require.NotEmpty(t, first.GetHandle(), "%v", first.GetErrors())
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"Validate by handle, 1 MiB of arguments", func() error {
			resp, err := s.Validate(context.Background(), validate)
			if err == nil && !resp.GetValid() {
				err = fmt.Errorf("not valid: %v", resp.GetErrors())
			}
			return err
		}},
		{"CompileSchema seen before, 1 MiB of schema", func() error {
			resp, err := s.CompileSchema(context.Background(), big)
			if err == nil && resp.GetHandle() != first.GetHandle() {
				err = fmt.Errorf("handle %q, want %q", resp.GetHandle(), first.GetHandle())
			}
			return err
		}},
	} {
		const calls = 10
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range calls {
			require.NoError(t, tc.call(), tc.name)
		}
		runtime.ReadMemStats(&after)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20),
			"%s: %d calls allocated %d bytes: the text was copied", tc.name, calls, after.TotalAlloc-before.TotalAlloc)
	}
}

// BenchmarkServiceValidate runs Service.Validate without the transport,
// on edit_file calls of 1 KiB and 1 MiB, by handle and with the schema
// inline (compiled before, so the compile cache answers): the handler's
// own cost, which a copy of the arguments used to double at 1 MiB.
func BenchmarkServiceValidate(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes int
	}{{"1KiB", 1 << 10}, {"1MiB", 1 << 20}} {
		s := server.NewService(server.Options{})
		byHandle := editRequest(b, s, size.bytes)
		text, err := benchdoc.Schema(fixtures.RepoRoot(b))
		require.NoError(b, err)
		inline := &toolgatev1.ValidateRequest{
			Schema:    &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(string(text))},
			Arguments: byHandle.GetArguments(),
		}
		for _, src := range []struct {
			name string
			req  *toolgatev1.ValidateRequest
		}{{"handle", byHandle}, {"inline", inline}} {
			b.Run(size.name+"/"+src.name, func(b *testing.B) {
				b.SetBytes(int64(size.bytes))
				b.ReportAllocs()
				for b.Loop() {
					if resp, err := s.Validate(context.Background(), src.req); err != nil || !resp.GetValid() {
						b.Fatal(err, resp)
					}
				}
			})
		}
	}
}

package server_test

import (
	"context"
	"runtime"
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
	c, err := s.CompileSchema(context.Background(), &toolgatev1.CompileSchemaRequest{
		Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: string(text)}})
	require.NoError(tb, err)
	require.NotEmpty(tb, c.GetHandle())
	return &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Handle{Handle: c.GetHandle()},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: string(benchdoc.Sized(size))},
	}
}

// TestValidateReadsArgumentsInPlace: Validate reads arguments_json where
// the decoded request holds it, without a copy. Ten calls with 1 MiB of
// arguments allocate less than one copy would. (Not parallel: the test
// reads the process's allocation count.)
func TestValidateReadsArgumentsInPlace(t *testing.T) {
	s := server.NewService(server.Options{})
	req := editRequest(t, s, 1<<20)
	const calls = 10
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range calls {
		resp, err := s.Validate(context.Background(), req)
		require.NoError(t, err)
		require.True(t, resp.GetValid())
	}
	runtime.ReadMemStats(&after)
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20),
		"%d calls with 1 MiB of arguments allocated %d bytes: the arguments were copied", calls, after.TotalAlloc-before.TotalAlloc)
}

// BenchmarkServiceValidate runs Service.Validate by handle, without the
// transport, on edit_file calls of 1 KiB and 1 MiB: the handler's own cost,
// which a copy of the arguments used to double at 1 MiB.
func BenchmarkServiceValidate(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes int
	}{{"1KiB", 1 << 10}, {"1MiB", 1 << 20}} {
		b.Run(size.name, func(b *testing.B) {
			s := server.NewService(server.Options{})
			req := editRequest(b, s, size.bytes)
			b.SetBytes(int64(size.bytes))
			b.ReportAllocs()
			for b.Loop() {
				if resp, err := s.Validate(context.Background(), req); err != nil || !resp.GetValid() {
					b.Fatal(err, resp)
				}
			}
		})
	}
}

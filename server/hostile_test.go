package server_test

import (
	"context"
	"runtime"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/server"
)

// hostileExpectation is what a server shape must get.
type hostileExpectation struct {
	// codes are the status codes the answer may have; codes.OK is an
	// in-band answer.
	codes []codes.Code
	// deadline, when set, is the request's deadline.
	deadline time.Duration
	// allocPerByte bounds the bytes the whole process allocates while the
	// request runs, per byte of the shape (its schema and arguments, tools
	// list or events), plus a fixed allowance for the server and the
	// client's own work.
	allocPerByte int64
}

// hostileExpectations lists every server shape; TestHostileRequests fails
// for a server shape missing here, so none is left unchecked.
var hostileExpectations = map[string]hostileExpectation{
	"validate-past-deadline": {codes: []codes.Code{codes.OK, codes.DeadlineExceeded}, deadline: 2 * time.Second, allocPerByte: 4},
	// The deadline leaves room for the request to reach the handler on a
	// loaded machine, and passes well before the compile would end.
	"compile-past-deadline": {codes: []codes.Code{codes.OK, codes.DeadlineExceeded}, deadline: 500 * time.Millisecond, allocPerByte: 160},
	// Read whole (its repetitions are checked in linear time), then
	// refused: 90,000 tools are past --max-toolset-tools.
	"toolset-repeated-members": {codes: []codes.Code{codes.ResourceExhausted}, allocPerByte: 160},
	"invalid-utf8-arguments":   {codes: []codes.Code{codes.InvalidArgument}, allocPerByte: 1},
	"invalid-utf8-schema":      {codes: []codes.Code{codes.InvalidArgument}, allocPerByte: 1},
	"invalid-utf8-delta":       {codes: []codes.Code{codes.InvalidArgument}, allocPerByte: 1},
	"malformed-handle":         {codes: []codes.Code{codes.InvalidArgument}, allocPerByte: 1},
	// The engine formats up to MaxFindings (100) findings, each holding
	// the long name three times, before the server cuts them.
	"long-pointers-small": {codes: []codes.Code{codes.OK}, allocPerByte: 500},
}

// hostileAllowance is what a request may allocate besides its per-byte
// share: the connection, the interceptors, the compile of a small schema.
const hostileAllowance = 8 << 20

// TestHostileRequests sends every server shape of the hostile corpus
// (internal/hostile, testdata/hostile/README.md) to a server with the
// default limits, as raw wire bytes, and checks that each gets a typed
// answer (an in-band verdict or the status its shape names), bounded in
// size by the answer limits, with bounded allocation (runtime.MemStats),
// and, past a deadline, that the server's handler ends. The shapes run one
// at a time so that each one's allocation is its own.
func TestHostileRequests(t *testing.T) {
	outcomes := make(chan error, 64) // room for every call of one shape: drained before each
	conn := start(t, server.Config{ServerOptions: []grpc.ServerOption{handlerOutcomes(outcomes)}})
	c := toolgatev1.NewValidationServiceClient(conn)
	for _, shape := range hostile.Shapes() {
		if shape.Owner != hostile.Server {
			continue
		}
		t.Run(shape.Name, func(t *testing.T) {
			want, ok := hostileExpectations[shape.Name]
			require.True(t, ok, "no expectation for server shape %q", shape.Name)
			req := shape.Generate()
			prepared := prepareHostile(t, c, req, shape.RPC)
			drain(outcomes)
			ctx := t.Context()
			if want.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, want.deadline)
				defer cancel()
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			answer, err := sendHostile(ctx, conn, shape.RPC, prepared)
			if want.deadline > 0 {
				select {
				case <-outcomes:
					deadline, _ := ctx.Deadline()
					t.Logf("the handler ended %v after the deadline", time.Since(deadline).Round(time.Millisecond))
				case <-time.After(30 * time.Second):
					t.Fatal("the handler did not end after its deadline")
				}
			}
			runtime.ReadMemStats(&after)

			assert.Contains(t, want.codes, status.Code(err), "%v", err)
			size := prepared.size
			allocated := int64(after.TotalAlloc - before.TotalAlloc)
			t.Logf("request %d bytes, answer %d bytes, allocated %d bytes (%.1f per request byte)",
				size, len(answer), allocated, float64(allocated)/float64(size))
			assert.LessOrEqual(t, allocated, want.allocPerByte*size+hostileAllowance, "allocation bounded by the request")
			if err == nil {
				checkHostileAnswer(t, shape.RPC, answer)
			}
		})
	}
}

// drain empties a channel of handler outcomes.
func drain(ch chan error) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// preparedHostile is a shape's request, encoded for the wire.
type preparedHostile struct {
	request []byte   // the unary request, or the stream's bind
	events  [][]byte // a stream's further requests
	size    int64    // the shape's bytes: schemas included, wire framing not
}

// prepareHostile compiles what the shape needs compiled first (a schema to
// validate by handle, a stream's tools) and encodes the request itself, so
// that only the request is measured.
func prepareHostile(t *testing.T, c toolgatev1.ValidationServiceClient, r hostile.Request, rpc string) preparedHostile {
	t.Helper()
	compile := func(schema []byte) string {
		resp, err := c.CompileSchema(t.Context(), &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile(toolgatev1.Profile_value["PROFILE_"+r.Profile]),
			Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: string(schema)}})
		require.NoError(t, err)
		require.NotEmpty(t, resp.GetHandle(), "%v", resp.GetErrors())
		return resp.GetHandle()
	}
	size := int64(len(r.Schema) + len(r.Arguments) + len(r.Handle) + len(r.ToolsList))
	switch rpc {
	case "CompileSchema":
		return preparedHostile{request: field(2, r.Schema), size: size}
	case "CompileToolset":
		return preparedHostile{request: field(2, r.ToolsList), size: size}
	case "Validate":
		handle := r.Handle
		if handle == "" {
			handle = compile(r.Schema)
		}
		return preparedHostile{request: append(field(1, []byte(handle)), field(3, r.Arguments)...), size: size}
	case "ValidateStream":
		var entries []byte
		for name, schema := range r.Tools {
			entries = append(entries, field(1, append(field(1, []byte(name)), field(2, []byte(compile(schema)))...))...)
			size += int64(len(name) + len(schema))
		}
		p := preparedHostile{request: field(1, entries)}
		provider := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), uint64(toolgatev1.Provider_value["PROVIDER_"+r.Provider]))
		for ev := range r.Events {
			p.events = append(p.events, field(5, append(provider, field(2, ev)...)))
			size += int64(len(ev))
		}
		p.size = size
		return p
	}
	t.Fatalf("unknown RPC %q", rpc)
	return preparedHostile{}
}

// sendHostile sends a prepared request and returns the answer's wire
// bytes (for a stream, its results one after another).
func sendHostile(ctx context.Context, conn *grpc.ClientConn, rpc string, p preparedHostile) ([]byte, error) {
	method := "/toolgate.v1.ValidationService/" + rpc
	if rpc != "ValidateStream" {
		var out []byte
		err := conn.Invoke(ctx, method, p.request, &out, grpc.ForceCodec(rawCodec{}))
		return out, err
	}
	s, err := conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, method, grpc.ForceCodec(rawCodec{}))
	if err != nil {
		return nil, err
	}
	for _, m := range append([][]byte{p.request}, p.events...) {
		if err := s.SendMsg(m); err != nil {
			break // the stream ended: RecvMsg says how
		}
	}
	if err := s.CloseSend(); err != nil {
		return nil, err
	}
	var answer []byte
	for {
		var out []byte
		if err := s.RecvMsg(&out); err != nil {
			if status.Code(err) == codes.OK {
				return answer, nil
			}
			return answer, err
		}
		answer = append(answer, out...)
	}
}

// checkHostileAnswer checks an in-band answer against the answer limits:
// its findings within the default answer budget, each message within the
// message limit (and its cut marked), each pointer within it too, and
// the whole answer no larger than its findings and what it echoes.
func checkHostileAnswer(t *testing.T, rpc string, answer []byte) {
	t.Helper()
	var lists [][]*toolgatev1.Error
	echo := 0 // bytes the answer may spend besides findings
	switch rpc {
	case "Validate":
		var resp toolgatev1.ValidateResponse
		require.NoError(t, proto.Unmarshal(answer, &resp))
		lists = append(lists, resp.GetErrors())
		echo = len(resp.GetHandle()) + 16
	case "CompileSchema": // compile-past-deadline, when the compile beats its deadline
		var resp toolgatev1.CompileSchemaResponse
		require.NoError(t, proto.Unmarshal(answer, &resp))
		lists = append(lists, resp.GetErrors(), resp.GetWarnings())
		echo = len(resp.GetHandle()) + 16
	case "CompileToolset":
		var resp toolgatev1.CompileToolsetResponse
		require.NoError(t, proto.Unmarshal(answer, &resp))
		for _, r := range resp.GetTools() {
			lists = append(lists, r.GetErrors(), r.GetWarnings())
			echo += len(r.GetName()) + len(r.GetHandle()) + 16
		}
		for name, h := range resp.GetBind() {
			echo += len(name) + len(h) + 8
		}
	default:
		t.Fatalf("no answer check for %s", rpc)
	}
	findings := 0
	for _, list := range lists {
		for _, e := range list {
			findings += 16 + len(e.GetKeyword()) + len(e.GetSchemaPath()) + len(e.GetInstancePath()) + len(e.GetMessage())
			assert.True(t, utf8.ValidString(e.GetMessage()))
			assert.LessOrEqual(t, len(e.GetMessage()), server.DefaultMaxFindingMessage+len("… (1000000000 more bytes)"))
			assert.LessOrEqual(t, len(e.GetSchemaPath()), server.DefaultMaxFindingMessage)
			assert.LessOrEqual(t, len(e.GetInstancePath()), server.DefaultMaxFindingMessage)
		}
	}
	assert.LessOrEqual(t, findings, server.DefaultMaxAnswerBytes+2*(server.DefaultMaxFindingMessage+64), "findings within the answer budget (the first always sent)")
	assert.LessOrEqual(t, len(answer), findings+echo+1024, "nothing but findings and what the request named")
}

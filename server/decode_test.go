package server_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protowire"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// rawCodec sends messages that are already encoded ([]byte) and receives
// them undecoded, so a test can send what a Go client never would.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) {
	b, ok := v.([]byte)
	if !ok {
		return nil, fmt.Errorf("rawCodec: %T is not []byte", v)
	}
	return b, nil
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	p, ok := v.(*[]byte)
	if !ok {
		return fmt.Errorf("rawCodec: %T is not *[]byte", v)
	}
	*p = append((*p)[:0], data...)
	return nil
}

func (rawCodec) Name() string { return "proto" }

// field encodes one length-delimited field.
func field(num protowire.Number, value []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), value)
}

// TestUndecodableRequests reproduces issue 9's finding 8: a request with
// invalid UTF-8 in a string field cannot be decoded, and grpc-go answered
// INTERNAL, which clients retry as a server fault; it is INVALID_ARGUMENT.
func TestUndecodableRequests(t *testing.T) {
	t.Parallel()
	conn := start(t, server.Config{})
	invalid := []byte("{\"a\":\"\xff\"}")
	handle := []byte("tg1_" + fmt.Sprintf("%064d", 0))
	unary := []struct {
		name, method string
		msg          []byte
	}{
		{"Validate arguments_json", "/toolgate.v1.ValidationService/Validate", append(field(1, handle), field(3, invalid)...)},
		{"Validate handle", "/toolgate.v1.ValidationService/Validate", append(field(1, []byte("tg1_\xff")), field(3, []byte("{}"))...)},
		{"CompileSchema schema_json", "/toolgate.v1.ValidationService/CompileSchema", field(2, invalid)},
		{"CompileToolset tools_list_json", "/toolgate.v1.ValidationService/CompileToolset", field(2, invalid)},
		{"a truncated message", "/toolgate.v1.ValidationService/CompileSchema", field(2, []byte("{}"))[:3]},
		{"health check service name", "/grpc.health.v1.Health/Check", field(1, []byte("\xfe"))},
	}
	for _, c := range unary {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var out []byte
			err := conn.Invoke(t.Context(), c.method, c.msg, &out, grpc.ForceCodecV2(nil), grpc.ForceCodec(rawCodec{}))
			assert.Equal(t, codes.InvalidArgument, code(err), "%v", err)
			assert.Contains(t, err.Error(), "the request could not be decoded")
		})
	}
	t.Run("a stream event", func(t *testing.T) {
		t.Parallel()
		desc := &grpc.StreamDesc{StreamName: "ValidateStream", ServerStreams: true, ClientStreams: true}
		s, err := conn.NewStream(t.Context(), desc, "/toolgate.v1.ValidationService/ValidateStream", grpc.ForceCodec(rawCodec{}))
		require.NoError(t, err)
		delta := append(field(1, []byte("call_1")), field(2, []byte("\xc3("))...) // CallDelta
		require.NoError(t, s.SendMsg(field(3, delta)))
		var out []byte
		err = s.RecvMsg(&out)
		require.NotErrorIs(t, err, io.EOF)
		assert.Equal(t, codes.InvalidArgument, code(err), "%v", err)
	})
	t.Run("a decodable request is still answered", func(t *testing.T) {
		t.Parallel()
		resp, err := toolgatev1.NewValidationServiceClient(conn).CompileSchema(t.Context(), compileJSON(`{"type":"object","properties":{"a":{"type":"string","enum":["é"]}}}`))
		require.NoError(t, err)
		assert.NotEmpty(t, resp.GetHandle())
	})
}

// TestUndecodableSecondMessage: a unary or health Watch request sent as
// two messages, one of which cannot be decoded, is refused, and the
// server remembers nothing of it afterwards: grpc-go decodes the second
// message into the first's and fails the receive (a cardinality
// violation), so the failure the codec remembered was never picked up
// and stayed held for good, one per such request.
func TestUndecodableSecondMessage(t *testing.T) {
	t.Parallel()
	var svc *server.Service
	conn := startService(t, server.Config{}, func(s *server.Service) { svc = s })
	bad := field(2, []byte("{\"a\":\"\xff\"}"))   // CompileSchemaRequest.schema_json, invalid UTF-8
	good := field(2, []byte(`{"type":"object"}`)) // the same, decodable
	health := field(1, []byte("\xfe"))            // HealthCheckRequest.service, invalid UTF-8
	for _, c := range []struct {
		name, method  string
		first, second []byte
	}{
		{"undecodable first", "/toolgate.v1.ValidationService/CompileSchema", bad, good},
		{"undecodable second", "/toolgate.v1.ValidationService/CompileSchema", good, bad},
		{"health Watch", "/grpc.health.v1.Health/Watch", health, health},
	} {
		t.Run(c.name, func(t *testing.T) {
			desc := &grpc.StreamDesc{StreamName: "two", ServerStreams: true, ClientStreams: true}
			s, err := conn.NewStream(t.Context(), desc, c.method, grpc.ForceCodec(rawCodec{}))
			require.NoError(t, err)
			require.NoError(t, s.SendMsg(c.first))
			require.NoError(t, s.SendMsg(c.second))
			require.NoError(t, s.CloseSend())
			var out []byte
			err = s.RecvMsg(&out)
			assert.Contains(t, []codes.Code{codes.InvalidArgument, codes.Internal}, code(err), "%v", err)
		})
	}
	assert.Zero(t, server.DecodeFailuresHeld(svc), "decoding failures held once every request has ended")
}

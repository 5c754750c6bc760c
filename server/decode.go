package server

import (
	"context"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// A request message that cannot be decoded (invalid UTF-8 in a string
// field, a malformed wire encoding) is the caller's fault, so the contract
// answers it INVALID_ARGUMENT. grpc-go answers INTERNAL, which clients
// retry as a server fault: its receive path wraps every codec error in
// codes.Internal and writes that status to the client at once, before the
// handler or any interceptor can change it.
//
// So the server installs its own codec (grpc.ForceServerCodecV2), which is
// grpc-go's proto codec except that, for the messages of the services it
// serves, a failed decode is not an error: the message is reset and the
// failure remembered. Each of those services is registered through
// decodeErrors.wrap, whose handlers pick the failure up right after
// decoding (a unary handler's decoder, a stream's RecvMsg) and answer
// INVALID_ARGUMENT, so the handler never sees the empty message. A payload
// that fails to decompress is still INTERNAL: grpc-go decompresses before
// any codec runs.

// decodeErrors is the server's codec and the handler wrapper that reads
// the failures it remembers. It is safe for concurrent use.
type decodeErrors struct {
	proto    encoding.CodecV2
	packages []string // proto packages ("toolgate.v1.") of the wrapped services
	failed   sync.Map // message (a pointer) -> its decoding error, until picked up
}

func newDecodeErrors() *decodeErrors {
	return &decodeErrors{proto: encoding.GetCodecV2("proto")}
}

// Name implements encoding.CodecV2: this is the proto codec.
func (d *decodeErrors) Name() string { return d.proto.Name() }

// Marshal implements encoding.CodecV2.
func (d *decodeErrors) Marshal(v any) (mem.BufferSlice, error) { return d.proto.Marshal(v) }

// Unmarshal implements encoding.CodecV2. For a message of a wrapped
// service, a decoding error leaves the message reset and is remembered for
// the handler; any other message fails as usual.
func (d *decodeErrors) Unmarshal(data mem.BufferSlice, v any) error {
	err := d.proto.Unmarshal(data, v)
	m, ok := v.(proto.Message)
	if err == nil || !ok || !d.served(m) {
		return err
	}
	proto.Reset(m)
	d.failed.Store(v, err)
	return nil
}

// served reports whether m belongs to a wrapped service's package.
func (d *decodeErrors) served(m proto.Message) bool {
	name := string(m.ProtoReflect().Descriptor().FullName())
	for _, p := range d.packages {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// check returns INVALID_ARGUMENT if v could not be decoded, forgetting it.
func (d *decodeErrors) check(v any) error {
	if err, ok := d.failed.LoadAndDelete(v); ok {
		return status.Errorf(codes.InvalidArgument, "the request could not be decoded: %v", err)
	}
	return nil
}

// checked returns the outcome of receiving v, whose receive returned err:
// INVALID_ARGUMENT if v could not be decoded, else err. It forgets v's
// failure whether or not the receive failed: grpc-go's receive of a
// unary (or server-streaming) request decodes a second message into the
// same v and then fails (INTERNAL, "cardinality violation"), so a failure
// remembered for the first or the second message would otherwise be held
// for good, one per such request.
func (d *decodeErrors) checked(v any, err error) error {
	if failed := d.check(v); failed != nil {
		return failed
	}
	return err
}

// wrap returns a copy of desc whose handlers answer INVALID_ARGUMENT for a
// request message that could not be decoded, and has the codec treat the
// messages of desc's proto package that way. Call it before the server
// serves.
func (d *decodeErrors) wrap(desc *grpc.ServiceDesc) *grpc.ServiceDesc {
	pkg := desc.ServiceName[:strings.LastIndexByte(desc.ServiceName, '.')+1]
	d.packages = append(d.packages, pkg)
	out := *desc
	out.Methods = make([]grpc.MethodDesc, len(desc.Methods))
	for i, m := range desc.Methods {
		handler := m.Handler
		m.Handler = func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			return handler(srv, ctx, func(v any) error {
				return d.checked(v, dec(v))
			}, interceptor)
		}
		out.Methods[i] = m
	}
	out.Streams = make([]grpc.StreamDesc, len(desc.Streams))
	for i, s := range desc.Streams {
		handler := s.Handler
		s.Handler = func(srv any, stream grpc.ServerStream) error {
			return handler(srv, decodingStream{stream, d})
		}
		out.Streams[i] = s
	}
	return &out
}

// decodingStream is a ServerStream whose RecvMsg answers INVALID_ARGUMENT
// for a message that could not be decoded.
type decodingStream struct {
	grpc.ServerStream
	d *decodeErrors
}

// RecvMsg implements grpc.ServerStream.
func (s decodingStream) RecvMsg(m any) error {
	return s.d.checked(m, s.ServerStream.RecvMsg(m))
}

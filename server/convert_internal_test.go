package server

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestStructJSONText: structJSON writes compact JSON, members sorted,
// strings escaped as jsondoc writes them (only \n and \t by letter),
// numbers as encoding/json writes them, that reads back as the same
// Struct.
func TestStructJSONText(t *testing.T) {
	t.Parallel()
	s, err := structpb.NewStruct(map[string]any{
		"b": []any{1.0, -0.5, 1e21, 1e-7, 123456789.0, math.MaxFloat64, 5e-324, nil, true, false},
		"a": map[string]any{"z": "q\"\\/\b\f\n\r\t\x00\x1f<>&é€😀", "": map[string]any{}},
		"c": []any{},
	})
	require.NoError(t, err)
	got, err := structJSON(s, 1<<20, "arguments_struct")
	require.NoError(t, err)
	assert.Equal(t, `{"a":{"":{},"z":"q\"\\/\u0008\u000c\n\u000d\t\u0000\u001f<>&é€😀"},`+
		`"b":[1,-0.5,1e+21,1e-7,123456789,1.7976931348623157e+308,5e-324,null,true,false],"c":[]}`, string(got))
	back := &structpb.Struct{}
	require.NoError(t, protojson.Unmarshal(got, back))
	assert.True(t, proto.Equal(s, back))
}

// TestStructJSONStopsAtLimit: a string whose escaped text passes the limit
// stops being written there; the buffer does not grow to six times the
// string first.
func TestStructJSONStopsAtLimit(t *testing.T) {
	const limit = 64 << 10
	s := &structpb.Struct{Fields: map[string]*structpb.Value{"a": structpb.NewStringValue(strings.Repeat("\x01", 1<<20))}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := structJSON(s, limit, "arguments_struct")
	runtime.ReadMemStats(&after)
	assert.Equal(t, codes.ResourceExhausted, status.Code(err))
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4*limit), "bytes allocated")
}

package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// slowSchema is a schema of width 999, within the default --max-width,
// under which every empty object in an array starts 998 evaluations (one
// per dependentSchemas entry, though no trigger ever comes): some 70 µs of
// CPU per argument byte, so minutes for a call of a few megabytes.
func slowSchema() string {
	deps := make([]string, 998)
	for i := range deps {
		deps[i] = fmt.Sprintf(`"k%d":{"required":["y"]}`, i)
	}
	return `{"properties":{"a":{"items":{"dependentSchemas":{` + strings.Join(deps, ",") + `}}}}}`
}

func jsonSchemaProfile(req *toolgatev1.CompileSchemaRequest) *toolgatev1.CompileSchemaRequest {
	req.Profile = toolgatev1.Profile_PROFILE_JSON_SCHEMA
	return req
}

// slowArguments are arguments that take slowSchema seconds.
var slowArguments = `{"a":[` + strings.Repeat("{},", 200_000) + "{}]}"

// TestMaxRequestTime: a call that takes longer than --max-request-time
// to process ends with DEADLINE_EXCEEDED saying so, though its client set
// no deadline; so does a stream whose event does; a call within it
// answers as before. The schema is compiled by calling the Service
// itself, past the limit's interceptor: its compile takes some 100 ms,
// more than the limit on a loaded machine.
func TestMaxRequestTime(t *testing.T) {
	t.Parallel()
	const limit = 200 * time.Millisecond
	var svc *server.Service
	c := toolgatev1.NewValidationServiceClient(startService(t, server.Config{Options: server.Options{MaxRequestTime: limit}},
		func(s *server.Service) { svc = s }))
	compiled, err := svc.CompileSchema(t.Context(), jsonSchemaProfile(compileJSON(slowSchema())))
	require.NoError(t, err)
	require.NotEmpty(t, compiled.GetHandle(), "%v", compiled.GetErrors())
	byHandle := &toolgatev1.ValidateRequest_Handle{Handle: compiled.GetHandle()}

	ok, err := c.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: byHandle,
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"a":[{}]}`}})
	require.NoError(t, err)
	assert.True(t, ok.GetValid())

	start := time.Now()
	_, err = c.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: byHandle,
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: slowArguments}})
	assert.Equal(t, codes.DeadlineExceeded, status.Code(err), "%v", err)
	assert.Contains(t, status.Convert(err).Message(), "--max-request-time, 200ms")
	t.Logf("Validate ended after %v", time.Since(start))

	s, err := c.ValidateStream(t.Context())
	require.NoError(t, err)
	send(t, s, startCall("c", "", compiled.GetHandle()), delta("c", `{"a":[{}`))
	send(t, s, delta("c", slowArguments[len(`{"a":[{}`):]))
	resp, err := s.Recv()
	assert.Equal(t, codes.DeadlineExceeded, status.Code(err), "%v %v", err, resp)
	assert.Contains(t, status.Convert(err).Message(), "--max-request-time, 200ms")
}

package server_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/server"
)

// samples is one scrape: each sample's value by its name and labels, as
// "name{a="x",b="y"}" with the labels sorted; a histogram gives its
// name_count and name_sum.
type samples map[string]float64

// scrape fetches url over HTTP and parses it with Prometheus's own text
// parser.
func scrape(t *testing.T, url string) samples {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	out := samples{}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			key := sampleKey(name, m.GetLabel())
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				out[key] = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				out[key] = m.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				out[sampleKey(name+"_count", m.GetLabel())] = float64(m.GetHistogram().GetSampleCount())
				out[sampleKey(name+"_sum", m.GetLabel())] = m.GetHistogram().GetSampleSum()
			}
		}
	}
	return out
}

func sampleKey(name string, labels []*dto.LabelPair) string {
	var parts []string
	for _, l := range labels {
		parts = append(parts, l.GetName()+`="`+l.GetValue()+`"`)
	}
	slices.Sort(parts)
	return name + "{" + strings.Join(parts, ",") + "}"
}

// moved returns how much each sample grew from before to after, for the
// samples that changed.
func moved(before, after samples) samples {
	out := samples{}
	for k, v := range after {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// metered serves cfg with metrics, over the in-memory gRPC listener, and
// its metrics over a real HTTP server; it returns the client and the
// metrics URL.
func metered(t *testing.T, cfg server.Config) (toolgatev1.ValidationServiceClient, string) {
	t.Helper()
	cfg.Metrics = server.NewMetrics()
	web := httptest.NewServer(cfg.Metrics.Handler())
	t.Cleanup(web.Close)
	return client(t, cfg), web.URL + "/metrics"
}

// TestMetricsUnary: compiles, verdicts, the store and the RPC metrics move
// exactly as the calls made.
func TestMetricsUnary(t *testing.T) {
	t.Parallel()
	c, url := metered(t, server.Config{})
	ctx := t.Context()
	before := scrape(t, url)
	assert.Contains(t, before, `grpc_server_handled_total{grpc_code="OK",grpc_method="Validate",grpc_service="toolgate.v1.ValidationService",grpc_type="unary"}`,
		"every method starts at zero")
	assert.Contains(t, before, `go_goroutines{}`)

	todo, err := c.CompileSchema(ctx, compileJSON(todoSchema))
	require.NoError(t, err)
	_, err = c.CompileSchema(ctx, compileJSON(`{"type":"object","properties":{"u":{"type":"string","format":"uri"}}}`))
	require.NoError(t, err)
	for _, args := range []string{`{"action":"add"}`, `{"action":"fly"}`, `{"action":"list"}`} {
		_, err = c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: todo.GetHandle()},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}})
		require.NoError(t, err)
	}
	_, err = c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: "tg1_" + strings.Repeat("0", 64)},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
	require.Equal(t, codes.NotFound, code(err))
	_, err = c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`)},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"n":0}`}})
	require.NoError(t, err)
	small, err := os.ReadFile(fixtures.Testdata(t, "mcp/small.json"))
	require.NoError(t, err)
	_, err = c.CompileToolset(ctx, toolsListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, string(small)))
	require.NoError(t, err)

	after := scrape(t, url)
	got := moved(before, after)
	const svc = `grpc_service="toolgate.v1.ValidationService",grpc_type="unary"`
	for key, want := range map[string]float64{
		`toolgate_compiles_total{code="NONE",profile="tool_input"}`:                          1 + 1 + 1, // todo, the inline schema, small.json's one good tool
		`toolgate_compiles_total{code="UNSUPPORTED_CAPABILITY",profile="tool_input"}`:        1 + 2,     // format; small.json's format/maximum/pattern tool and its untyped one
		`toolgate_compiles_total{code="VALIDATION",profile="tool_input"}`:                    1,         // small.json's tool without an inputSchema
		`toolgate_compile_duration_seconds_count{profile="tool_input",source="schema"}`:      3,
		`toolgate_compile_duration_seconds_count{profile="tool_input",source="toolset"}`:     1,
		`toolgate_compile_wait_seconds_count{}`:                                              3 + 1, // each compile above, waiting for room
		`toolgate_verdicts_total{code="NONE",profile="tool_input",rpc="Validate"}`:           2,
		`toolgate_verdicts_total{code="VALIDATION",profile="tool_input",rpc="Validate"}`:     2,
		`toolgate_store_hits_total{}`:                                                        3,
		`toolgate_store_misses_total{}`:                                                      1,
		`toolgate_store_entries{}`:                                                           3, // todo, the inline schema, one tool
		`grpc_server_started_total{grpc_method="Validate",` + svc + `}`:                      5,
		`grpc_server_handled_total{grpc_code="OK",grpc_method="Validate",` + svc + `}`:       4,
		`grpc_server_handled_total{grpc_code="NotFound",grpc_method="Validate",` + svc + `}`: 1,
		`grpc_server_handled_total{grpc_code="OK",grpc_method="CompileSchema",` + svc + `}`:  2,
		`grpc_server_handling_seconds_count{grpc_method="CompileToolset",` + svc + `}`:       1,
	} {
		assert.Equal(t, want, got[key], key)
	}
	assert.Positive(t, got[`toolgate_store_bytes{}`])
	assert.Zero(t, after[`toolgate_store_evictions_total{}`])
}

// TestMetricsStream: a stream is open while it runs, its calls are open
// until their verdicts, and an early rejection counts the bytes that came
// after its deciding byte.
func TestMetricsStream(t *testing.T) {
	t.Parallel()
	c, url := metered(t, server.Config{})
	handle := compileTodo(t, c)
	before := scrape(t, url)
	s, err := c.ValidateStream(t.Context())
	require.NoError(t, err)

	first := `{"action": "update", "status": "do` // rejected at the d, byte 32 of 34
	send(t, s, askReceipt(), bind(map[string]string{"todo": handle}),
		startCall("call_1", "todo", ""), startCall("call_2", "todo", ""),
		delta("call_1", `{"action": "upd`), delta("call_2", first))
	r := recvResult(t, s)
	require.Equal(t, "call_2", r.GetCallId())
	require.True(t, r.GetEarly())
	require.Equal(t, int64(32), r.GetErrors()[0].GetOffset())
	send(t, s, delta("call_2", `ne"}`)) // accepted and ignored
	send(t, s, startCall("call_3", "nosuchtool", ""))
	require.Equal(t, "call_3", recvResult(t, s).GetCallId())

	during := moved(before, scrape(t, url))
	assert.Equal(t, 1.0, during[`toolgate_open_streams{}`])
	assert.Equal(t, 1.0, during[`toolgate_open_calls{}`], "call_1 has no verdict yet")
	assert.Equal(t, 1.0+4, during[`toolgate_early_rejection_saved_bytes_total{}`], "the byte after the d, then the ignored delta")
	assert.Positive(t, during[`toolgate_stream_schema_bytes{}`], "the stream holds the todo schema")
	assert.Positive(t, during[`toolgate_stream_state_bytes{}`], "call_1 is open")

	send(t, s, delta("call_1", `ate"}`), end("call_1"))
	require.NoError(t, s.CloseSend())
	require.True(t, recvResult(t, s).GetValid())
	recvEnd(t, s, 10, 3)

	got := moved(before, scrape(t, url))
	for key, want := range map[string]float64{
		`toolgate_open_streams{}`:         0,
		`toolgate_open_calls{}`:           0,
		`toolgate_stream_schema_bytes{}`:  0,
		`toolgate_stream_unnamed_bytes{}`: 0,
		`toolgate_stream_state_bytes{}`:   0,
		`toolgate_verdicts_total{code="NONE",profile="tool_input",rpc="ValidateStream"}`:                                                              1,
		`toolgate_verdicts_total{code="VALIDATION",profile="tool_input",rpc="ValidateStream"}`:                                                        1,
		`toolgate_verdicts_total{code="VALIDATION",profile="unknown",rpc="ValidateStream"}`:                                                           1, // the unknown tool
		`toolgate_early_rejections_total{profile="tool_input"}`:                                                                                       1,
		`toolgate_early_rejections_total{profile="unknown"}`:                                                                                          1,
		`toolgate_early_rejection_saved_bytes_total{}`:                                                                                                5,
		`toolgate_stream_bytes_total{event="delta"}`:                                                                                                  float64(len(`{"action": "upd`) + len(first) + len(`ne"}`) + len(`ate"}`)),
		`grpc_server_handled_total{grpc_code="OK",grpc_method="ValidateStream",grpc_service="toolgate.v1.ValidationService",grpc_type="bidi_stream"}`: 1,
	} {
		assert.Equal(t, want, got[key], key)
	}
}

// TestMetricsStreamThatFails: calls a failed stream leaves without a
// verdict are no longer counted as open once it ends.
func TestMetricsStreamThatFails(t *testing.T) {
	t.Parallel()
	c, url := metered(t, server.Config{})
	handle := compileTodo(t, c)
	before := scrape(t, url)
	s, err := c.ValidateStream(t.Context())
	require.NoError(t, err)
	send(t, s, startCall("a", "", handle), startCall("b", "", handle),
		providerEvent(toolgatev1.Provider_PROVIDER_ANTHROPIC, `not json`))
	_, err = s.Recv()
	require.Equal(t, codes.InvalidArgument, code(err))
	got := moved(before, scrape(t, url))
	assert.Zero(t, got[`toolgate_open_calls{}`])
	assert.Zero(t, got[`toolgate_open_streams{}`])
	assert.Equal(t, float64(len(`not json`)), got[`toolgate_stream_bytes_total{event="provider_event"}`])
}

// TestMetricsStoreEvictions: the store's evictions and size are read at
// each scrape.
func TestMetricsStoreEvictions(t *testing.T) {
	t.Parallel()
	c, url := metered(t, server.Config{Options: server.Options{StoreEntries: 2}})
	for _, name := range []string{"a", "b", "c", "d"} {
		_, err := c.CompileSchema(t.Context(), compileJSON(`{"type":"object","properties":{"`+name+`":{"type":"string"}}}`))
		require.NoError(t, err)
	}
	got := scrape(t, url)
	assert.Equal(t, 2.0, got[`toolgate_store_evictions_total{}`])
	assert.Equal(t, 2.0, got[`toolgate_store_entries{}`])
}

// TestMetricsChangeNoAnswer: the same calls get the same answers from a
// server with metrics and one without.
func TestMetricsChangeNoAnswer(t *testing.T) {
	t.Parallel()
	with, _ := metered(t, server.Config{})
	without := client(t, server.Config{})
	for _, req := range []*toolgatev1.ValidateRequest{
		{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(todoSchema)}, Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"action":"add"}`}},
		{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(todoSchema)}, Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"action":"fly","x":1}`}},
		{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(`{"type":"object","pattern":"x"}`)}, Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}},
	} {
		a, errA := with.Validate(t.Context(), req)
		b, errB := without.Validate(t.Context(), req)
		require.NoError(t, errA)
		require.NoError(t, errB)
		assert.True(t, proto.Equal(a, b), "with metrics %v, without %v", a, b)
	}
}

func TestMetricsServeOneServer(t *testing.T) {
	t.Parallel()
	m := server.NewMetrics()
	srv, _ := server.NewGRPCServer(server.Config{Metrics: m})
	defer srv.Stop()
	assert.PanicsWithValue(t, "server: a Metrics serves one server: duplicate metrics collector registration attempted", func() {
		server.NewGRPCServer(server.Config{Metrics: m})
	})
}

// TestREADMEListsEveryMetric: the README's table of toolgate_* metrics
// names every one the server exports, and no other.
func TestREADMEListsEveryMetric(t *testing.T) {
	t.Parallel()
	c, url := metered(t, server.Config{})
	handle := compileTodo(t, c)
	_, err := c.CompileToolset(t.Context(), toolsListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, `{"tools":[]}`))
	require.NoError(t, err)
	_, err = c.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: handle},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"action":"add"}`}})
	require.NoError(t, err)
	s, err := c.ValidateStream(t.Context())
	require.NoError(t, err)
	send(t, s, askReceipt(), startCall("c", "", handle), delta("c", `{"action":"x`), delta("c", `"}`),
		providerEvent(toolgatev1.Provider_PROVIDER_ANTHROPIC, `{"type":"ping"}`))
	require.NoError(t, s.CloseSend())
	require.True(t, recvResult(t, s).GetEarly())
	recvEnd(t, s, 5, 1)

	exported := map[string]bool{}
	for key := range scrape(t, url) {
		name, _, _ := strings.Cut(key, "{")
		name = strings.TrimSuffix(strings.TrimSuffix(name, "_count"), "_sum")
		if strings.HasPrefix(name, "toolgate_") {
			exported[name] = true
		}
	}
	readme, err := os.ReadFile(filepath.Join(fixtures.RepoRoot(t), "README.md"))
	require.NoError(t, err)
	listed := map[string]bool{}
	for line := range strings.SplitSeq(string(readme), "\n") {
		if !strings.HasPrefix(line, "| `toolgate_") {
			continue
		}
		for _, m := range regexp.MustCompile("`(toolgate_[a-z_]+)`").FindAllStringSubmatch(strings.Split(line, "|")[1], -1) {
			listed[m[1]] = true
		}
	}
	assert.Equal(t, exported, listed)
}

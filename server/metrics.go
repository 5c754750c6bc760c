package server

import (
	"fmt"
	"net/http"
	"time"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/store"
	"github.com/toolgate/toolgate/internal/stream"
)

// Metrics are the Prometheus metrics of one server: the RPC metrics of
// go-grpc-middleware's Prometheus provider (grpc_server_started_total,
// grpc_server_handled_total by code, grpc_server_msg_received_total,
// grpc_server_msg_sent_total and the grpc_server_handling_seconds
// histogram), the Go runtime's and the process's (go_*, process_*), and
// toolgate's own (toolgate_*, listed in the README's "Metrics" section).
//
// Create one with NewMetrics, pass it in Config.Metrics and serve Handler
// on an address of its own. A Metrics serves one server: NewGRPCServer
// panics when given one that already serves another. A nil *Metrics is
// valid and records nothing, so a server without metrics does no extra
// work beyond a nil check at each hook.
type Metrics struct {
	registry *prometheus.Registry
	rpc      *grpcprom.ServerMetrics

	compiles       *prometheus.CounterVec
	compileSeconds *prometheus.HistogramVec
	compileWaits   prometheus.Histogram
	verdicts       *prometheus.CounterVec
	early          *prometheus.CounterVec
	savedBytes     prometheus.Counter
	streamBytes    *prometheus.CounterVec
	openStreams    prometheus.Gauge
	openCalls      prometheus.Gauge
}

// Label values of the toolgate_* metrics.
const (
	rpcValidate       = "Validate"
	rpcValidateStream = "ValidateStream"
	sourceSchema      = "schema"  // CompileSchema, or an inline schema
	sourceToolset     = "toolset" // a whole CompileToolset
	eventDelta        = "delta"
	eventProvider     = "provider_event"
)

// latencyBuckets are the histogram buckets, in seconds, of RPC handling
// and compile times: 50µs to about 13s, ×4 per bucket.
var latencyBuckets = prometheus.ExponentialBuckets(50e-6, 4, 10)

// NewMetrics returns a Metrics with every metric registered on a registry
// of its own (never Prometheus's global one), so that any number of
// servers, in tests for example, can run in one process.
func NewMetrics() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		rpc: grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(
			grpcprom.WithHistogramBuckets(latencyBuckets))),
		compiles: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolgate_compiles_total",
			Help: "Schemas compiled (CompileSchema, inline schemas, each tool of CompileToolset), by profile and code (NONE: compiled).",
		}, []string{"profile", "code"}),
		compileSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "toolgate_compile_duration_seconds",
			Help:    "Time to compile one schema (source=schema) or one whole CompileToolset (source=toolset), by profile.",
			Buckets: latencyBuckets,
		}, []string{"profile", "source"}),
		compileWaits: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "toolgate_compile_wait_seconds",
			Help:    "Time a compile (one schema, or one whole CompileToolset) waited for room within --max-compiling-bytes.",
			Buckets: latencyBuckets,
		}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolgate_verdicts_total",
			Help: "Verdicts on arguments (one per Validate whose schema compiled, one per streamed call), by rpc, profile and code (NONE: valid).",
		}, []string{"rpc", "profile", "code"}),
		early: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolgate_early_rejections_total",
			Help: "Streamed calls rejected before they ended, by profile.",
		}, []string{"profile"}),
		savedBytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "toolgate_early_rejection_saved_bytes_total",
			Help: "Argument bytes toolgate saw after the byte that rejected a call early: what a runtime that stops the call at its early result does not pay for.",
		}),
		streamBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolgate_stream_bytes_total",
			Help: "Bytes received on ValidateStream: argument fragments (event=delta) and raw provider events (event=provider_event).",
		}, []string{"event"}),
		openStreams: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "toolgate_open_streams",
			Help: "ValidateStream calls in progress.",
		}),
		openCalls: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "toolgate_open_calls",
			Help: "Streamed tool calls started and still without a verdict, over all open streams.",
		}),
	}
	m.registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.rpc, m.compiles, m.compileSeconds, m.compileWaits, m.verdicts, m.early, m.savedBytes,
		m.streamBytes, m.openStreams, m.openCalls,
	)
	return m
}

// Handler serves the metrics in the Prometheus text format, or in
// OpenMetrics when the scraper asks for it.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// serverOptions returns the interceptors that record the RPC metrics, to
// go before every other option so that they see every call outermost,
// those refused by authentication or ended by a panic included.
func (m *Metrics) serverOptions() []grpc.ServerOption {
	if m == nil {
		return nil
	}
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(m.rpc.UnaryServerInterceptor()),
		grpc.ChainStreamInterceptor(m.rpc.StreamServerInterceptor()),
	}
}

// record starts recording for svc: its verdicts and compiles, and its
// store read at each scrape. It panics when m already serves another
// server; NewGRPCServer calls it before it starts any goroutine.
func (m *Metrics) record(svc *Service) {
	if m == nil {
		return
	}
	if err := m.registry.Register(storeCollector{svc.store}); err != nil {
		panic(fmt.Sprintf("server: a Metrics serves one server: %v", err))
	}
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "toolgate_stream_schema_bytes",
		Help: "Size of the compiled schemas open streams hold, counted as --max-stream-schema-bytes counts it.",
	}, func() float64 { return float64(svc.streamSchemas.total()) }))
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "toolgate_stream_unnamed_bytes",
		Help: "Argument bytes open streams hold for provider calls whose tool is not named yet, counted as --max-unnamed-call-bytes counts them.",
	}, func() float64 { return float64(svc.unnamed.Used()) }))
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "toolgate_stream_state_bytes",
		Help: "Validation state the open streamed calls of every stream hold, counted as --max-open-state-bytes counts it.",
	}, func() float64 { return float64(svc.state.Used()) }))
	svc.metrics = m
}

// serve shows every method of srv, the server of the Service m records,
// at zero.
func (m *Metrics) serve(srv *grpc.Server) {
	if m == nil {
		return
	}
	m.rpc.InitializeMetrics(srv)
}

// compiled records one schema's compilation.
func (m *Metrics) compiled(profile schema.Profile, code schema.Code) {
	if m == nil {
		return
	}
	m.compiles.WithLabelValues(profile.String(), code.String()).Inc()
}

// compileTime records how long compiling took since start: one schema
// (sourceSchema) or one whole tool set (sourceToolset).
func (m *Metrics) compileTime(profile schema.Profile, source string, start time.Time) {
	if m == nil {
		return
	}
	m.compileSeconds.WithLabelValues(profile.String(), source).Observe(time.Since(start).Seconds())
}

// compileWait records how long a compile waited for room since start.
func (m *Metrics) compileWait(start time.Time) {
	if m == nil {
		return
	}
	m.compileWaits.Observe(time.Since(start).Seconds())
}

// verdict records one verdict on arguments.
func (m *Metrics) verdict(rpc string, profile schema.Profile, code schema.Code) {
	if m == nil {
		return
	}
	m.verdicts.WithLabelValues(rpc, profile.String(), code.String()).Inc()
}

// openStream records a ValidateStream starting and returns what follows
// it; close it when the stream ends.
func (m *Metrics) openStream() *streamMetrics {
	if m == nil {
		return nil
	}
	m.openStreams.Inc()
	return &streamMetrics{m: m}
}

// streamMetrics follows one ValidateStream. The session's counters are
// running totals; the metrics take their growth since the last look. A nil
// *streamMetrics records nothing. It is used by the stream's goroutine only.
type streamMetrics struct {
	m       *Metrics
	sess    *stream.Session
	seen    stream.Counters // the session's counters at the last look
	results int             // verdicts sent
}

// watch makes sm follow sess.
func (sm *streamMetrics) watch(sess *stream.Session) {
	if sm != nil {
		sm.sess = sess
	}
}

// event records a request the stream received, once the session has taken
// it.
func (sm *streamMetrics) event(req *toolgatev1.ValidateStreamRequest) {
	if sm == nil {
		return
	}
	switch ev := req.GetEvent().(type) {
	case *toolgatev1.ValidateStreamRequest_Delta:
		sm.m.streamBytes.WithLabelValues(eventDelta).Add(float64(len(ev.Delta.GetFragment())))
	case *toolgatev1.ValidateStreamRequest_ProviderEvent:
		sm.m.streamBytes.WithLabelValues(eventProvider).Add(float64(len(ev.ProviderEvent.GetEventJson())))
	}
	sm.sync()
}

// result records a call's verdict. An early rejection also counts the
// bytes of its deciding delta after the deciding byte; later bytes of the
// call arrive as the session's ignored bytes.
func (sm *streamMetrics) result(r *stream.Result) {
	if sm == nil {
		return
	}
	sm.sync() // the call may have started in the event that ends it
	sm.results++
	sm.m.openCalls.Dec()
	sm.m.verdict(rpcValidateStream, r.Profile, schema.Summarize(r.Findings))
	if !r.Early {
		return
	}
	sm.m.early.WithLabelValues(r.Profile.String()).Inc()
	if len(r.Findings) > 0 && r.Findings[0].Offset >= 0 {
		sm.m.savedBytes.Add(float64(max(0, r.Bytes-r.Findings[0].Offset-1)))
	}
}

// sync takes the growth of the session's counters.
func (sm *streamMetrics) sync() {
	if sm.sess == nil {
		return
	}
	c := sm.sess.Counters()
	sm.m.openCalls.Add(float64(c.Started - sm.seen.Started))
	sm.m.savedBytes.Add(float64(c.IgnoredBytes - sm.seen.IgnoredBytes))
	sm.seen = c
}

// close records the stream's end: calls it left without a verdict (the
// stream failed or its client left) are no longer open.
func (sm *streamMetrics) close() {
	if sm == nil {
		return
	}
	sm.sync()
	sm.m.openCalls.Sub(float64(sm.seen.Started - sm.results))
	sm.m.openStreams.Dec()
}

// storeCollector exports a store's size and counters, read at each scrape.
type storeCollector struct {
	store *store.Store[*schema.Schema]
}

var (
	storeEntriesDesc = prometheus.NewDesc("toolgate_store_entries",
		"Compiled schemas held.", nil, nil)
	storeBytesDesc = prometheus.NewDesc("toolgate_store_bytes",
		"Size of the compiled schemas held, counted as --store-bytes counts it.", nil, nil)
	storeHitsDesc = prometheus.NewDesc("toolgate_store_hits_total",
		"Handle lookups that found their schema.", nil, nil)
	storeMissesDesc = prometheus.NewDesc("toolgate_store_misses_total",
		"Handle lookups that did not (NOT_FOUND, or a bind to an unknown handle).", nil, nil)
	storeEvictionsDesc = prometheus.NewDesc("toolgate_store_evictions_total",
		"Compiled schemas evicted, least recently used first, to stay within --store-entries and --store-bytes.", nil, nil)
)

// Describe implements prometheus.Collector.
func (storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{storeEntriesDesc, storeBytesDesc, storeHitsDesc, storeMissesDesc, storeEvictionsDesc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.store.Stats()
	ch <- prometheus.MustNewConstMetric(storeEntriesDesc, prometheus.GaugeValue, float64(st.Entries))
	ch <- prometheus.MustNewConstMetric(storeBytesDesc, prometheus.GaugeValue, float64(st.Bytes))
	ch <- prometheus.MustNewConstMetric(storeHitsDesc, prometheus.CounterValue, float64(st.Hits))
	ch <- prometheus.MustNewConstMetric(storeMissesDesc, prometheus.CounterValue, float64(st.Misses))
	ch <- prometheus.MustNewConstMetric(storeEvictionsDesc, prometheus.CounterValue, float64(st.Evictions))
}

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/toolgate/toolgate/server"
)

// metricsServer serves a server's Metrics over HTTP on --metrics-addr. A
// nil *metricsServer is metrics turned off.
type metricsServer struct {
	m   *server.Metrics
	srv *http.Server
}

// The metrics listener's time limits, so that connections cannot pile up
// (each is a goroutine and a file descriptor of the process that serves
// gRPC): a scraper has metricsHeaderTimeout to send its request's headers
// and metricsReadTimeout for the whole request; a keep-alive connection
// waiting for its next request is closed after metricsIdleTimeout (without
// it nothing bounds that wait: 500 connections that each made one request
// stayed open, and their goroutines, for as long as they liked); and an
// answer must be taken within metricsWriteTimeout (net/http/pprof extends
// it by a profile's ?seconds=).
const (
	metricsHeaderTimeout = 10 * time.Second
	metricsReadTimeout   = 15 * time.Second
	metricsIdleTimeout   = 60 * time.Second
	metricsWriteTimeout  = 2 * time.Minute
)

// metricsShutdownTimeout bounds how long stopping waits for scrapes in
// flight.
const metricsShutdownTimeout = 5 * time.Second

// startMetrics listens on --metrics-addr and serves /metrics there, and the
// net/http/pprof handlers under /debug/pprof/ with --pprof. It returns nil
// when --metrics-addr is empty, and an error for --pprof without it.
func (c *config) startMetrics(announce, logger *slog.Logger) (*metricsServer, error) {
	if c.metricsAddr == "" {
		if c.pprof {
			return nil, errors.New("--pprof needs --metrics-addr")
		}
		return nil, nil
	}
	lis, err := net.Listen("tcp", c.metricsAddr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	m := server.NewMetrics()
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	if c.pprof {
		mux.HandleFunc("/debug/pprof/", pprof.Index) // and every named profile under it
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	ms := &metricsServer{m: m, srv: &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: metricsHeaderTimeout,
		ReadTimeout:       metricsReadTimeout,
		IdleTimeout:       metricsIdleTimeout,
		WriteTimeout:      metricsWriteTimeout,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}}
	go func() {
		if err := ms.srv.Serve(lis); !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics server stopped", "err", err)
		}
	}()
	announce.Info("serving metrics", "addr", lis.Addr().String(), "pprof", c.pprof)
	return ms, nil
}

// metrics returns the Metrics to give the gRPC server, nil when off.
func (ms *metricsServer) metrics() *server.Metrics {
	if ms == nil {
		return nil
	}
	return ms.m
}

// stop closes the listener and waits a little for scrapes in flight.
func (ms *metricsServer) stop() {
	if ms == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), metricsShutdownTimeout)
	defer cancel()
	_ = ms.srv.Shutdown(ctx)
}

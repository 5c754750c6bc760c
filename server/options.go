package server

import (
	"time"

	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/internal/validator"
)

// Options configure a Service. Zero fields take the defaults listed.
type Options struct {
	// MaxDepth limits the nesting of arguments. Default 128.
	MaxDepth int
	// MaxFindings caps the findings in one answer; errors_truncated reports
	// more. Default 100.
	MaxFindings int
	// StoreEntries bounds how many compiled schemas are kept. Default 10,000.
	StoreEntries int
	// StoreBytes bounds the compiled schemas kept, counted as their
	// canonical JSON length. Default 256 MiB.
	StoreBytes int64
	// MaxCallsPerStream bounds the calls one ValidateStream may start.
	// Default 1,024.
	MaxCallsPerStream int
	// MaxCallBytes bounds the argument bytes of one streamed call. Default
	// 4 MiB.
	MaxCallBytes int64
	// MaxToolsPerStream bounds the distinct tool names one ValidateStream
	// may bind (each holds its compiled schema for the stream's life); the
	// bind past it is RESOURCE_EXHAUSTED. Default 1,024.
	MaxToolsPerStream int
	// StreamIdleTimeout ends a ValidateStream (DEADLINE_EXCEEDED) that sends
	// nothing for this long. Default 5 minutes.
	StreamIdleTimeout time.Duration
	// StreamSendTimeout ends a ValidateStream (DEADLINE_EXCEEDED) when one
	// of its results has waited this long for the client to read it (gRPC
	// flow control holds results a client does not read). Default 30
	// seconds.
	StreamSendTimeout time.Duration
}

// Defaults for Options.
const (
	DefaultStoreEntries = 10_000
	DefaultStoreBytes   = 256 << 20
	// DefaultStreamIdleTimeout is Options.StreamIdleTimeout's default.
	DefaultStreamIdleTimeout = 5 * time.Minute
	// DefaultStreamSendTimeout is Options.StreamSendTimeout's default.
	DefaultStreamSendTimeout = 30 * time.Second
)

func (o Options) withDefaults() Options {
	if o.MaxDepth <= 0 {
		o.MaxDepth = jsontok.DefaultMaxDepth
	}
	if o.MaxFindings <= 0 {
		o.MaxFindings = validator.DefaultMaxFindings
	}
	if o.StoreEntries <= 0 {
		o.StoreEntries = DefaultStoreEntries
	}
	if o.StoreBytes <= 0 {
		o.StoreBytes = DefaultStoreBytes
	}
	if o.MaxCallsPerStream <= 0 {
		o.MaxCallsPerStream = stream.DefaultMaxCalls
	}
	if o.MaxCallBytes <= 0 {
		o.MaxCallBytes = stream.DefaultMaxCallBytes
	}
	if o.MaxToolsPerStream <= 0 {
		o.MaxToolsPerStream = stream.DefaultMaxTools
	}
	if o.StreamIdleTimeout <= 0 {
		o.StreamIdleTimeout = DefaultStreamIdleTimeout
	}
	if o.StreamSendTimeout <= 0 {
		o.StreamSendTimeout = DefaultStreamSendTimeout
	}
	return o
}

func (o Options) validatorOptions() validator.Options {
	return validator.Options{MaxDepth: o.MaxDepth, MaxFindings: o.MaxFindings}
}

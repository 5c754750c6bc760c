package server

import (
	"context"
	"unsafe"

	"google.golang.org/grpc/status"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// checkEvery is how many argument bytes Validate feeds the validator
// between two checks of its context. The slowest schemas the engine knows
// cost tens of microseconds per byte, so a request stops within a fraction
// of a second of its deadline; a check costs nanoseconds per chunk.
const checkEvery = 1 << 10

// validate checks a whole document, fed to the validator checkEvery bytes
// at a time with ctx checked before each piece: once the request's deadline
// passes or its caller leaves, no more of the document is fed and the
// error is DEADLINE_EXCEEDED or CANCELLED. A document of one piece goes
// through validator.Validate, whose validators are pooled.
func (s *Service) validate(ctx context.Context, sch *schema.Schema, doc []byte) (validator.Result, error) {
	if err := alive(ctx); err != nil {
		return validator.Result{}, err
	}
	if len(doc) <= checkEvery {
		r := validator.Validate(sch, doc, s.opts.validatorOptions())
		s.step(ctx, int64(len(doc)))
		return r, nil
	}
	v := validator.New(sch, s.opts.validatorOptions())
	for fed := 0; fed < len(doc); {
		if err := alive(ctx); err != nil {
			return validator.Result{}, err
		}
		n := min(checkEvery, len(doc)-fed)
		v.Write(doc[fed : fed+n])
		fed += n
		s.step(ctx, int64(fed))
	}
	return v.Close(), nil
}

// alive returns ctx's end as a gRPC status (DEADLINE_EXCEEDED or
// CANCELLED), or nil while ctx lasts.
func alive(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return status.FromContextError(err).Err()
	}
	return nil
}

// step reports how far a request's work got (argument bytes fed, tools
// compiled) to the progress hook that tests set; it does nothing otherwise.
func (s *Service) step(ctx context.Context, done int64) {
	if s.progress != nil {
		s.progress(ctx, done)
	}
}

// readOnlyBytes returns s's bytes in place, for a request's schema or
// arguments text: the compiler and the validator only read their input
// (the conformance suite and the real tools' tests run them on memory the
// process cannot write, fixtures.ReadOnly), and the copy was a large part
// of a Validate by handle: BenchmarkServiceValidate took 1.85 µs for 1 KiB
// of arguments and 935 µs for 1 MiB with it, 1.13 µs and 674 µs without
// (interleaved runs, medians of three), and allocated 1 MiB a call at
// 1 MiB.
func readOnlyBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

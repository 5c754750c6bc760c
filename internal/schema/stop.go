package schema

import (
	"context"
	"iter"
)

// CompileContext is CompileWith, stopping soon after ctx ends: it then
// returns ctx's error and no Result. The compile looks at ctx every
// stopEvery subschemas, before each regular expression, every stopEvery
// steps of measuring the schema's width, and every so many bytes of
// reading the document (jsondoc.ParseUntil) and of checking it against
// its meta-schema (see MetaValidator), so it stops within a few
// milliseconds of work. It also looks every so many bytes of writing the
// document's canonical form and before sorting a large object's members
// (jsondoc.CanonicalUntil), and once it has seen the end it compiles no
// further member of a node and does not finish the nodes it leaves (see
// stopper.ended). The regular expression being built finishes first (at
// most pattern.Limits.MaxCompileSteps, some 0.3 s by default), and so
// does sorting one node's names (some 30 ms for 130,000).
func CompileContext(ctx context.Context, profile Profile, doc []byte, opts Options) (*Result, error) {
	s := &stopper{ctx: ctx}
	res := compileWith(s, profile, doc, opts)
	if s.err != nil {
		return nil, s.err
	}
	return res, nil
}

// stopEvery is how many calls of stopper.stopped look at the context once:
// a subschema costs some 2–10 µs to compile, a step of measuring width
// some 0.3 µs.
const stopEvery = 256

// stopper ends a compile soon after its context does. The nil stopper,
// and one without a context, never stop.
type stopper struct {
	ctx   context.Context
	calls int
	err   error // the context's, once the compile has seen it end
}

// stopped reports whether the compile must stop: its context ended, as
// seen at one call in stopEvery.
func (s *stopper) stopped() bool {
	if s == nil || s.ctx == nil {
		return false
	}
	if s.err != nil {
		return true
	}
	if s.calls++; s.calls < stopEvery {
		return false
	}
	return s.now()
}

// ended reports whether the compile has already seen its context end,
// without looking again: what only finishes a Result that will not be
// returned (sorting a node's names) is skipped then.
func (s *stopper) ended() bool { return s != nil && s.err != nil }

// untilEnded yields the elements of xs, with their indexes, until s has
// seen its context end: a loop over a node's members or items compiles no
// more of them after that.
func untilEnded[E any](s *stopper, xs []E) iter.Seq2[int, E] {
	return func(yield func(int, E) bool) {
		for i, x := range xs {
			if s.ended() || !yield(i, x) {
				return
			}
		}
	}
}

// now reports whether the compile must stop, looking at the context now:
// before work that may take long by itself.
func (s *stopper) now() bool {
	if s == nil || s.ctx == nil {
		return false
	}
	s.calls = 0
	if s.err == nil {
		s.err = s.ctx.Err()
	}
	return s.err != nil
}

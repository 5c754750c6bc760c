package stream

import "sync/atomic"

// HeldBytes bounds bytes that sessions together hold: the argument text
// of provider calls whose tool is not named yet (Limits.Held, as
// MaxCallBytes bounds it for one session) or the validation state of open
// calls (Limits.State, as MaxState does), so that many streams cannot each
// hold their own limit. It is safe for concurrent use.
type HeldBytes struct {
	max  int64
	used atomic.Int64
}

// NewHeldBytes returns a bound of max bytes over the sessions given it.
func NewHeldBytes(max int64) *HeldBytes { return &HeldBytes{max: max} }

// Used returns the bytes held now.
func (h *HeldBytes) Used() int64 { return h.used.Load() }

// take claims n bytes. When they would pass the bound it claims nothing
// and returns false and the bytes that were still free. A nil *HeldBytes
// bounds nothing.
func (h *HeldBytes) take(n int64) (ok bool, free int64) {
	if h == nil {
		return true, 0
	}
	for {
		used := h.used.Load()
		if used+n > h.max {
			return false, max(0, h.max-used)
		}
		if h.used.CompareAndSwap(used, used+n) {
			return true, 0
		}
	}
}

// give returns n bytes that take claimed.
func (h *HeldBytes) give(n int64) {
	if h != nil && n > 0 {
		h.used.Add(-n)
	}
}

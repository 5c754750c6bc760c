package provider_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// call is one assembled tool call.
type call struct {
	Key, ID, Name, Args string
	Conflict            string `json:",omitempty"` // the second name, when the provider sent one
}

// checker assembles calls from events and enforces the event contract: one
// Start per key before its Deltas, at most one Name and only for a call
// started without a name, at most one Conflict and only for a named call
// and another name, at most one End, nothing after End.
type checker struct {
	calls []*call
	byKey map[string]*call
	ended map[string]bool
}

func newChecker() *checker {
	return &checker{byKey: map[string]*call{}, ended: map[string]bool{}}
}

func (c *checker) add(evs []provider.Event) error {
	for _, ev := range evs {
		cl := c.byKey[ev.Key]
		switch ev.Kind {
		case provider.Start:
			if ev.Key == "" {
				return fmt.Errorf("start with empty key")
			}
			if cl != nil {
				return fmt.Errorf("second start for %q", ev.Key)
			}
			cl = &call{Key: ev.Key, ID: ev.CallID, Name: ev.ToolName}
			c.byKey[ev.Key] = cl
			c.calls = append(c.calls, cl)
		case provider.Delta:
			if cl == nil || c.ended[ev.Key] {
				return fmt.Errorf("delta for %q outside start..end", ev.Key)
			}
			if ev.Fragment == "" {
				return fmt.Errorf("empty delta for %q", ev.Key)
			}
			cl.Args += ev.Fragment
		case provider.Name:
			if cl == nil || c.ended[ev.Key] {
				return fmt.Errorf("name for %q outside start..end", ev.Key)
			}
			if cl.Name != "" || ev.ToolName == "" {
				return fmt.Errorf("name %q for %q, which is named %q", ev.ToolName, ev.Key, cl.Name)
			}
			cl.Name = ev.ToolName
			if cl.ID == "" {
				cl.ID = ev.CallID
			}
		case provider.Conflict:
			if cl == nil || c.ended[ev.Key] {
				return fmt.Errorf("conflict for %q outside start..end", ev.Key)
			}
			if cl.Name == "" || ev.ToolName == "" || ev.ToolName == cl.Name || cl.Conflict != "" {
				return fmt.Errorf("conflict %q for %q, named %q (conflict %q)", ev.ToolName, ev.Key, cl.Name, cl.Conflict)
			}
			cl.Conflict = ev.ToolName
		case provider.End:
			if cl == nil || c.ended[ev.Key] {
				return fmt.Errorf("end for %q without start or twice", ev.Key)
			}
			c.ended[ev.Key] = true
		default:
			return fmt.Errorf("event of kind %v", ev.Kind)
		}
	}
	return nil
}

// allEnded reports a call that Close left open.
func (c *checker) allEnded() error {
	for _, cl := range c.calls {
		if !c.ended[cl.Key] {
			return fmt.Errorf("call %q not ended after Close", cl.Key)
		}
	}
	return nil
}

func (c *checker) result() []call {
	out := make([]call, len(c.calls))
	for i, cl := range c.calls {
		out[i] = *cl
	}
	return out
}

// stream feeds every event, requiring each to be accepted, then closes. It
// returns the events of each Feed (the last element holds Close's) and the
// assembled calls in start order.
func stream(t *testing.T, p provider.Provider, events ...string) ([][]provider.Event, []call) {
	t.Helper()
	a, err := provider.New(p)
	require.NoError(t, err)
	ck := newChecker()
	var per [][]provider.Event
	for i, e := range events {
		evs, err := a.Feed(nil, []byte(e))
		require.NoError(t, err, "event %d: %s", i, e)
		require.NoError(t, ck.add(evs), "event %d", i)
		per = append(per, evs)
	}
	evs := a.Close(nil)
	require.NoError(t, ck.add(evs), "close")
	require.NoError(t, ck.allEnded())
	per = append(per, evs)
	return per, ck.result()
}

// kinds lists "kind key" for events, for compact assertions.
func kinds(evs []provider.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Kind.String() + " " + ev.Key
	}
	return out
}

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
	Unreadable          string `json:",omitempty"` // why the call cannot be validated (its Unreadable)
}

// output is one assembled message output.
type output struct {
	Key, Text string
	Refused   bool   `json:",omitempty"`
	Refusal   string `json:",omitempty"` // the Refusal event's fragment
}

// checker assembles calls and outputs from events and enforces the event
// contract. For outputs: Text and Refusal only for a key that is no call's,
// at most one Refusal, one TextEnd, nothing after it, never an empty Text.
// For calls: one
// Start per key before its Deltas, at most one Name and only for a call
// started without a name, at most one Conflict and only for a named call
// and another name, at most one Unreadable, with a reason, which names a
// call its events had not named, at most one End, nothing after End.
type checker struct {
	calls   []*call
	byKey   map[string]*call
	ended   map[string]bool
	outputs []*output
	outKey  map[string]*output
}

func newChecker() *checker {
	return &checker{byKey: map[string]*call{}, ended: map[string]bool{}, outKey: map[string]*output{}}
}

func (c *checker) add(evs []provider.Event) error {
	for _, ev := range evs {
		cl := c.byKey[ev.Key]
		out := c.outKey[ev.Key]
		switch ev.Kind {
		case provider.Text, provider.Refusal:
			if cl != nil || c.ended[ev.Key] {
				return fmt.Errorf("%v for %q, a call or an ended output", ev.Kind, ev.Key)
			}
			if out == nil {
				out = &output{Key: ev.Key}
				c.outKey[ev.Key] = out
				c.outputs = append(c.outputs, out)
			}
			if ev.Kind == provider.Text {
				if ev.Fragment == "" {
					return fmt.Errorf("empty text for %q", ev.Key)
				}
				out.Text += ev.Fragment
				continue
			}
			if out.Refused {
				return fmt.Errorf("second refusal for %q", ev.Key)
			}
			out.Refused, out.Refusal = true, ev.Fragment
		case provider.TextEnd:
			if out == nil || c.ended[ev.Key] {
				return fmt.Errorf("text end for %q without text or twice", ev.Key)
			}
			c.ended[ev.Key] = true
		case provider.Start:
			if ev.Key == "" {
				return fmt.Errorf("start with empty key")
			}
			if cl != nil || out != nil {
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
		case provider.Unreadable:
			if cl == nil || c.ended[ev.Key] {
				return fmt.Errorf("unreadable for %q outside start..end", ev.Key)
			}
			if cl.Unreadable != "" || ev.Fragment == "" || (cl.Name != "" && ev.ToolName != cl.Name) {
				return fmt.Errorf("unreadable %q (%q) for %q, named %q (unreadable %q)", ev.ToolName, ev.Fragment, ev.Key, cl.Name, cl.Unreadable)
			}
			cl.Name, cl.Unreadable = ev.ToolName, ev.Fragment
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

// allEnded reports a call or an output that Close left open.
func (c *checker) allEnded() error {
	for _, cl := range c.calls {
		if !c.ended[cl.Key] {
			return fmt.Errorf("call %q not ended after Close", cl.Key)
		}
	}
	for _, o := range c.outputs {
		if !c.ended[o.Key] {
			return fmt.Errorf("output %q not ended after Close", o.Key)
		}
	}
	return nil
}

// texts returns the assembled outputs, in order of first appearance.
func (c *checker) texts() []output {
	out := make([]output, len(c.outputs))
	for i, o := range c.outputs {
		out[i] = *o
	}
	return out
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
	per, ck := streamChecked(t, p, events...)
	return per, ck.result()
}

// streamChecked is stream, returning the checker with calls and outputs.
func streamChecked(t *testing.T, p provider.Provider, events ...string) ([][]provider.Event, *checker) {
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
	return per, ck
}

// kinds lists "kind key" for events, for compact assertions.
func kinds(evs []provider.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Kind.String() + " " + ev.Key
	}
	return out
}

package provider_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// TestMCPApprovalRequests: an OpenAI Responses mcp_approval_request is a
// call to a remote MCP server's tool that OpenAI makes only once the
// client approves it, so it is validated like a function call: keyed by
// its item id, which is also its call id (the approval_request_id the
// client answers with), named by its tool, its arguments whole in its
// first copy and reconciled with the later ones. Before, it got no call,
// so no result: the runtime approving it had nothing to go by.
func TestMCPApprovalRequests(t *testing.T) {
	t.Parallel()
	request := func(args string) string {
		return `{"type":"mcp_approval_request","id":"mcpr_1","server_label":"deepwiki","name":"ask_question","arguments":` + quoteJSON(args) + `}`
	}
	args := `{"repoName":"facebook/react","question":"What is it?"}`
	want := []call{{Key: "mcpr_1", ID: "mcpr_1", Name: "ask_question", Args: args}}
	for _, c := range []struct {
		name   string
		events []string
		want   []call
	}{
		{"added, done and completed", []string{
			rCreated(), rItem("added", "0", request(args)), rItem("done", "0", request(args)), rCompleted(request(args)),
		}, want},
		{"in response.completed only", []string{rCreated(), rCompleted(request(args))}, want},
		{"beside a function call", []string{
			rCreated(), rItem("added", "0", request(args)),
			rItem("added", "1", `{"type":"function_call","id":"fc_1","call_id":"call_2","name":"f","arguments":"{}"}`),
			rItem("done", "0", request(args)), rItem("done", "1", `{"type":"function_call","id":"fc_1","call_id":"call_2","name":"f","arguments":"{}"}`),
		}, append(want[:1:1], call{Key: "fc_1", ID: "call_2", Name: "f", Args: `{}`})},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, got := stream(t, provider.OpenAIResponses, c.events...)
			assert.Equal(t, c.want, got)
		})
	}

	t.Run("a later copy with other arguments", func(t *testing.T) {
		t.Parallel()
		a, err := provider.New(provider.OpenAIResponses)
		require.NoError(t, err)
		for _, ev := range []string{rCreated(), rItem("added", "0", request(args))} {
			_, err := a.Feed(nil, []byte(ev))
			require.NoError(t, err)
		}
		_, err = a.Feed(nil, []byte(rItem("done", "0", request(`{"repoName":"x"}`))))
		var ee *provider.EventError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, "mcpr_1", ee.Key, "the call is refused")
		assert.Contains(t, ee.Reason, "final arguments (16 bytes) disagree with the 54 bytes streamed")
	})
	t.Run("arguments that are no string", func(t *testing.T) {
		t.Parallel()
		streamFails(t, provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", `{"type":"mcp_approval_request","id":"mcpr_1","name":"ask_question","arguments":{}}`),
		}, "mcp_approval_request item arguments are not a string")
	})
}

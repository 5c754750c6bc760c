package provider_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// FuzzAdapters feeds arbitrary event lines to an adapter. The first byte picks
// the provider; the rest is split into events at newlines. Whatever the
// input, nothing panics, every error is an *EventError (one without Key
// appends nothing), and the events keep the contract: one Start per key
// before its Deltas, at most one End, and every call ended after Close.
func FuzzAdapters(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		p := provider.Provider(1 + data[0]%6)
		a, err := provider.New(p)
		if err != nil {
			t.Fatal(err)
		}
		ck := newChecker()
		var buf []provider.Event
		for _, line := range bytes.Split(data[1:], []byte("\n")) {
			buf, err = a.Feed(buf[:0], line)
			if err != nil {
				var ee *provider.EventError
				if !errors.As(err, &ee) {
					t.Fatalf("error of type %T: %v", err, err)
				}
				if ee.Key == "" && len(buf) > 0 {
					t.Fatalf("rejected event produced %d events: %v", len(buf), err)
				}
			}
			if err := ck.add(buf); err != nil {
				t.Fatalf("%v: contract broken: %v", p, err)
			}
		}
		if err := ck.add(a.Close(buf[:0])); err != nil {
			t.Fatalf("%v: contract broken at Close: %v", p, err)
		}
		if err := ck.allEnded(); err != nil {
			t.Fatal(err)
		}
	})
}

// fuzzSeeds returns the synthetic recordings in testdata, one seed per file,
// plus a few hand-picked edge cases.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for dir, p := range recordingDirs {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.jsonl"))
		require.NoError(f, err)
		for _, file := range files {
			data, err := os.ReadFile(file)
			require.NoError(f, err)
			seeds = append(seeds, append([]byte{byte(p - 1)}, data...))
		}
	}
	for _, s := range []struct {
		p     provider.Provider
		lines string
	}{
		{provider.OpenAIChat, `{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"{"}},{"id":"x","function":{"name":"n"}}]}}]}` + "\n" + `{"choices":[{"finish_reason":"stop"}]}`},
		{provider.OpenAIResponses, `{"type":"response.function_call_arguments.done","item_id":"i","arguments":"{}"}` + "\n" + `{"type":"response.output_item.added","item":{"type":"function_call","id":"i","name":"f"}}`},
		{provider.Anthropic, `{"type":"message_start","message":{"content":[{"type":"tool_use","id":"t","name":"f","input":{"a":1}}]}}` + "\n" + `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","name":"g","input":{}}}`},
		{provider.Gemini, `{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.a[0].b","stringValue":"x","willContinue":true}],"willContinue":true}},{"functionCall":{"partialArgs":[{"jsonPath":"$.a[0].b","stringValue":"y"},{"jsonPath":"$['c']","nullValue":null}]}}]}}]}`},
		{provider.Bedrock, `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{}"}}}}` + "\n" + `{"contentBlockStart":{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"a","name":"f"}}}}`},
		{provider.Cohere, `{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":"{}"}}}}}` + "\n" + `{"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"a","function":{"name":"f"}}}}}`},
		{provider.OpenAIChat, `{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"f","arguments":""}}]},"finish_reason":"tool_calls"},{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}` + "\n[DONE]\n" + `{"id":"b","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"y","function":{"name":"f","arguments":""}}]}}]}` + "\n" + `{"id":"b","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`},
		{provider.OpenAIResponses, `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"text/m","name":"f","arguments":""}}` + "\n" + `{"type":"response.output_text.delta","output_index":1,"item_id":"m","content_index":0,"delta":"{}"}`},
		{provider.Gemini, `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}},{"content":{"parts":[{"functionCall":{"name":"g","partialArgs":[{"jsonPath":"$.a","boolValue":true}]}}]}}]}`},
	} {
		seeds = append(seeds, append([]byte{byte(s.p - 1)}, s.lines...))
	}
	return seeds
}

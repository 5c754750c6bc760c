package provider_test

import (
	"fmt"

	"github.com/toolgate/toolgate/internal/provider"
)

// An Anthropic stream: a text block, then a tool_use block whose input
// streams as partial JSON.
func ExampleAdapter() {
	a, err := provider.New(provider.Anthropic)
	if err != nil {
		panic(err)
	}
	stream := []string{
		`{"type":"message_start","message":{"content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": "}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"Paris\"}"}}`,
		`{"type":"content_block_stop","index":1}`,
		`{"type":"message_stop"}`,
	}
	var evs []provider.Event
	for _, line := range stream {
		if evs, err = a.Feed(evs[:0], []byte(line)); err != nil {
			panic(err)
		}
		for _, ev := range evs {
			switch ev.Kind {
			case provider.Start:
				fmt.Printf("start %s %s (%s)\n", ev.Key, ev.ToolName, ev.CallID)
			case provider.Delta:
				fmt.Printf("delta %s %q\n", ev.Key, ev.Fragment)
			case provider.End:
				fmt.Printf("end   %s\n", ev.Key)
			}
		}
	}
	a.Close(nil) // nothing left open here
	// Output:
	// start msg0/block1 get_weather (toolu_1)
	// delta msg0/block1 "{\"city\": "
	// delta msg0/block1 "\"Paris\"}"
	// end   msg0/block1
}

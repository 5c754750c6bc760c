package client_test

import (
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/toolgate/toolgate/client"
)

func ExampleClient_ValidateEvents() {
	c, stop := exampleClient()
	defer stop()
	resp, err := c.Compile(context.Background(), `{"type":"object","required":["city"],"properties":{"city":{"type":"string"},"unit":{"type":"string","enum":["c","f"]}}}`)
	if err != nil {
		log.Fatal(err)
	}
	// The calls as the runtime assembled them from its SDK's stream: each
	// delta is a piece of the arguments, cut anywhere (even inside "ü").
	events := []client.StreamEvent{
		client.Start("call_1", "weather"),
		client.Delta("call_1", `{"city":"Z`), client.Delta("call_1", "\xc3"), client.Delta("call_1", "\xbcrich\"}"),
		client.End("call_1"),
		client.Start("call_2", "weather"),
		client.Delta("call_2", `{"city":"Oslo","unit":"k`), client.Delta("call_2", `elvin"}`),
		client.End("call_2"),
	}
	tools := map[string]string{"weather": resp.GetHandle()}
	for r, err := range c.ValidateEvents(context.Background(), 0, slices.Values(events), tools) {
		if err != nil {
			log.Fatal(err)
		}
		if r.GetValid() {
			fmt.Println(r.GetCallId(), "valid")
			continue
		}
		e := r.GetErrors()[0]
		fmt.Printf("%s rejected early=%v at byte %d: %s\n", r.GetCallId(), r.GetEarly(), e.GetOffset(), e.GetMessage())
	}
	// Output:
	// call_1 valid
	// call_2 rejected early=true at byte 23: /unit must be one of "c", "f"; got "k…".
}

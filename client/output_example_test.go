package client_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/toolgate/toolgate/client"
)

// openAIExtractionBody is an OpenAI Chat stream with response_format
// json_schema, whose answer names a reason outside the schema's enum.
const openAIExtractionBody = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"finish_reason":null}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"{\"order_id\":\"A-4\","},"finish_reason":null}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"\"reason\":\"brok"},"finish_reason":null}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"en\"}"},"finish_reason":null}]}

data: {"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: [DONE]

`

func ExampleClient_ValidateOutputStream() {
	c, stop := exampleClient()
	defer stop()
	// The bindable output schema the runtime asked the model to follow.
	const intake = `{"type":"object","required":["order_id","reason"],"properties":{
		"order_id":{"type":["string","null"]},
		"reason":{"type":"string","enum":["damaged_item","wrong_item","other"]}}}`

	// body is the provider's streamed response.
	body := io.NopCloser(strings.NewReader(openAIExtractionBody))
	for r, err := range c.ValidateOutputStream(context.Background(), client.OpenAIChat, body, intake) {
		if err != nil {
			log.Fatal(err)
		}
		if r.GetValid() {
			fmt.Println(r.GetCallId(), "valid")
			continue
		}
		// Stop paying for the generation: breaking the loop closes body.
		e := r.GetErrors()[0]
		fmt.Printf("%s rejected early=%v at byte %d: %s\n", r.GetCallId(), r.GetEarly(), e.GetOffset(), e.GetMessage())
		break
	}
	// Output:
	// output/0 rejected early=true at byte 28: /reason must be one of "damaged_item", "wrong_item", "other"; got "b…".
}

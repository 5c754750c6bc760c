package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/toolgate/toolgate/client"
)

// anthropicBody is an Anthropic Messages stream as it arrives over HTTP,
// with two calls of the todo tool: the first one's status can never be
// valid ("bl..." starts no enum choice), the second one is fine.
const anthropicBody = `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"usage":{"input_tokens":50,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"todo","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"action\":\"update\",\"id\":\"3\","}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"status\":\"bl"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"ocked\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_2","name":"todo","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"action\":\"list\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_stop
data: {"type":"message_stop"}

`

func ExampleClient_ValidateProviderStream() {
	c, stop := exampleClient()
	defer stop()
	ctx := context.Background()
	compiled, err := c.Compile(ctx, todoSchema)
	if err != nil {
		log.Fatal(err)
	}

	// body is the provider's response: resp.Body of the HTTP request that
	// asked for a streamed message.
	body := io.NopCloser(strings.NewReader(anthropicBody))
	tools := map[string]string{"todo": compiled.GetHandle()}
	for r, err := range c.ValidateProviderStream(ctx, client.Anthropic, body, tools) {
		if err != nil {
			log.Fatal(err)
		}
		if r.GetValid() {
			fmt.Println(r.GetCallId(), r.GetToolName(), "valid")
			continue
		}
		// A runtime would stop the generation here when r.GetEarly(), and
		// hand errors[0].message back to the model.
		e := r.GetErrors()[0]
		fmt.Printf("%s %s invalid: early=%t %s at %q, byte %d\n",
			r.GetCallId(), r.GetToolName(), r.GetEarly(), e.GetKeyword(), e.GetInstancePath(), e.GetOffset())
	}
	// Output:
	// toolu_1 todo invalid: early=true enum at "/status", byte 38
	// toolu_2 todo valid
}

func ExampleWithMaxEventBytes() {
	c, stop := exampleClient()
	defer stop()

	// No line of this body may be longer than 128 bytes.
	body := strings.NewReader(anthropicBody)
	for _, err := range c.ValidateProviderStream(context.Background(), client.Anthropic, body, nil, client.WithMaxEventBytes(128)) {
		var be *client.BodyError
		if errors.As(err, &be) {
			fmt.Println(errors.Is(err, client.ErrEventTooLong), err)
		}
	}
	// Output:
	// true client: reading the provider stream: client: server-sent event too long: line longer than 128 bytes
}

func ExampleSSEReader() {
	// An OpenAI Chat stream: data lines only, comments, CRLF, and [DONE].
	body := ": OPENROUTER PROCESSING\r\n\r\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\r\n\r\n" +
		"data: [DONE]\r\n\r\n"
	r := client.NewSSEReader(strings.NewReader(body), 0)
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("type %q data %s\n", ev.Type, ev.Data)
	}
	// Output:
	// type "" data {"choices":[{"index":0,"delta":{"content":"Hi"}}]}
	// type "" data [DONE]
}

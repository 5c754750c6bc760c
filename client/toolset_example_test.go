package client_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"maps"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/client"
)

// mcpToolsList is the result of an MCP server's tools/list request: three
// tools, of which fetch uses format, which the tool input profile cannot
// enforce.
const mcpToolsList = `{"tools":[
	{"name":"get_weather","description":"Forecast for a city.","inputSchema":{
		"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1}},
		"required":["city"],"additionalProperties":false}},
	{"name":"fetch","description":"Fetch a web page.","inputSchema":{
		"type":"object","properties":{"url":{"type":"string","format":"uri"}},"required":["url"]}},
	{"name":"list_notes","description":"List the user's notes.","inputSchema":{"type":"object","properties":{}}}]}`

func ExampleClient_CompileToolset() {
	c, stop := exampleClient()
	defer stop()

	resp, err := c.CompileToolset(context.Background(), mcpToolsList)
	if err != nil {
		log.Fatal(err) // the call failed, or mcpToolsList is not a tools/list result
	}
	for _, r := range resp.GetTools() {
		fmt.Printf("%s: %s\n", r.GetName(), r.GetCode())
		for _, e := range r.GetErrors() {
			fmt.Printf("  %s at %s\n", e.GetKeyword(), e.GetSchemaPath())
		}
	}
	fmt.Println("bound:", slices.Sorted(maps.Keys(client.NewToolset(resp).Bind())))
	// Output:
	// get_weather: ERROR_CODE_UNSPECIFIED
	// fetch: ERROR_CODE_UNSUPPORTED_CAPABILITY
	//   format at /properties/url/format
	// list_notes: ERROR_CODE_UNSPECIFIED
	// bound: [get_weather list_notes]
}

func ExampleClient_CompileTools() {
	c, stop := exampleClient()
	defer stop()

	// Tools defined in code, for a runtime that is not an MCP client.
	resp, err := c.CompileTools(context.Background(), []client.ToolSchema{
		{Name: "todo", SchemaJSON: todoSchema},
		{Name: "shell", SchemaJSON: `{"type":"object","properties":{"cmd":{"type":"string","maxLength":200}}}`},
		{Name: "todo", SchemaJSON: todoSchema},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range resp.GetTools() {
		fmt.Printf("%s: %s %s\n", r.GetName(), r.GetCode(), r.GetErrors()[0].GetKeyword())
	}
	fmt.Println("bound:", len(resp.GetBind()))
	// Output:
	// todo: ERROR_CODE_VALIDATION name
	// shell: ERROR_CODE_UNSUPPORTED_CAPABILITY maxLength
	// todo: ERROR_CODE_VALIDATION name
	// bound: 0
}

// anthropicWeatherBody is an Anthropic stream with two calls: get_weather
// with days below its minimum, and fetch, which the toolset could not bind.
const anthropicWeatherBody = `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5"}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Oslo\", \"days\": 0}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_2","name":"fetch","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"url\": \"https://example.com\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_stop
data: {"type":"message_stop"}

`

func ExampleToolset() {
	c, stop := exampleClient()
	defer stop()
	ctx := context.Background()

	resp, err := c.CompileToolset(ctx, mcpToolsList)
	if err != nil {
		log.Fatal(err)
	}
	ts := client.NewToolset(resp)
	for _, r := range ts.Refused() {
		// A runtime would log this, or refuse to offer the tool.
		fmt.Printf("not enforced: %s (%d findings)\n", r.GetName(), len(r.GetErrors()))
	}

	// body is the provider's streamed response.
	body := io.NopCloser(strings.NewReader(anthropicWeatherBody))
	for r, err := range c.ValidateProviderStream(ctx, client.Anthropic, body, ts.Bind()) {
		if err != nil {
			log.Fatal(err)
		}
		if r.GetValid() {
			fmt.Println(r.GetCallId(), r.GetToolName(), "valid")
			continue
		}
		// errors[0].message is the sentence to hand back to the model.
		e := r.GetErrors()[0]
		fmt.Printf("%s %s invalid: %s at %q\n", r.GetCallId(), r.GetToolName(), e.GetKeyword(), e.GetInstancePath())
	}
	// Output:
	// not enforced: fetch (1 findings)
	// toolu_1 get_weather invalid: minimum at "/days"
	// toolu_2 fetch invalid: tool_name at ""
}

// Two replicas behind a load balancer: the toolset is compiled on one, and
// the stream reaches the other, which has never seen it. LoadToolset keeps
// the schemas, and WithToolset binds them inline, so the second replica
// validates every call all the same.
func ExampleClient_LoadToolset() {
	c, stop := exampleClient()
	defer stop()
	other, stopOther := exampleClient() // another replica
	defer stopOther()
	ctx := context.Background()

	ts, err := c.LoadToolset(ctx, mcpToolsList)
	if err != nil {
		log.Fatal(err)
	}
	body := io.NopCloser(strings.NewReader(anthropicWeatherBody))
	for r, err := range other.ValidateProviderStream(ctx, client.Anthropic, body, nil, client.WithToolset(ts)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.GetCallId(), r.GetToolName(), r.GetCode(), r.GetErrors()[0].GetKeyword())
	}
	// Output:
	// toolu_1 get_weather ERROR_CODE_VALIDATION minimum
	// toolu_2 fetch ERROR_CODE_VALIDATION tool_name
}

func ExampleClient_LoadTools() {
	c, stop := exampleClient()
	defer stop()
	ctx := context.Background()

	ts, err := c.LoadTools(ctx, []client.ToolSchema{{Name: "todo", SchemaJSON: todoSchema}})
	if err != nil {
		log.Fatal(err)
	}
	body := io.NopCloser(strings.NewReader(anthropicBody))
	for r, err := range c.ValidateProviderStream(ctx, client.Anthropic, body, nil, client.WithToolset(ts)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.GetCallId(), r.GetValid())
	}
	// Output:
	// toolu_1 false
	// toolu_2 true
}

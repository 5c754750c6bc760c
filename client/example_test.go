package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/server"
)

// The examples run against an in-memory toolgate (startReplica), reached
// through grpc.WithContextDialer; a program dials "host:port" instead.

// exampleClient starts an in-memory toolgate with the default config and
// returns a Client dialed to it as in ExampleDial; stop closes the Client,
// then stops the server.
func exampleClient() (c *client.Client, stop func()) {
	toolgate := startReplica(server.Config{})
	c, err := client.Dial("passthrough:///bufnet", client.WithInsecure(),
		client.WithDialOptions(grpc.WithContextDialer(toolgate.dial)))
	if err != nil {
		toolgate.stop()
		log.Fatal(err)
	}
	return c, func() {
		c.Close()
		toolgate.stop()
	}
}

func ExampleDial() {
	toolgate := startReplica(server.Config{})
	defer toolgate.stop()

	c, err := client.Dial("passthrough:///bufnet",
		client.WithInsecure(), // plaintext, as a local toolgate listens by default
		client.WithDialOptions(grpc.WithContextDialer(toolgate.dial)))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	ctx := context.Background()
	compiled, err := c.Compile(ctx, `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)
	if err != nil {
		log.Fatal(err)
	}
	resp, err := c.Validate(ctx, compiled.GetHandle(), `{"city":"Oslo"}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("valid:", resp.GetValid())
	// Output:
	// valid: true
}

func ExampleNew() {
	toolgate := startReplica(server.Config{})
	defer toolgate.stop()

	// The caller owns conn, and closes it.
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(toolgate.dial),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	c := client.New(conn)

	resp, err := c.Compile(context.Background(), `{"type":"object","properties":{}}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("code:", resp.GetCode())
	// Output:
	// code: ERROR_CODE_UNSPECIFIED
}

func ExampleWithBearerToken() {
	toolgate := startReplica(server.Config{BearerToken: "s3cret"})
	defer toolgate.stop()

	for _, opts := range [][]client.Option{
		nil,
		{client.WithBearerToken("s3cret")},
	} {
		c, err := client.Dial("passthrough:///bufnet", append(opts,
			client.WithInsecure(), // the token travels in clear: loopback only
			client.WithDialOptions(grpc.WithContextDialer(toolgate.dial)))...)
		if err != nil {
			log.Fatal(err)
		}
		_, err = c.Compile(context.Background(), `{"type":"object","properties":{}}`)
		fmt.Println(status.Code(err))
		c.Close()
	}
	// Output:
	// Unauthenticated
	// OK
}

func ExampleClient_Compile() {
	c, stop := exampleClient()
	defer stop()

	// pattern and maxLength are JSON Schema, but not the tool input subset:
	// the answer is in-band, with every finding.
	resp, err := c.Compile(context.Background(), `{"type":"object","properties":{
		"q":{"type":"string","pattern":"^a"},
		"tags":{"type":"array","items":{"type":"string","maxLength":8}}}}`)
	if err != nil {
		log.Fatal(err) // the call failed: no answer about the schema
	}
	fmt.Printf("handle %q, code %s\n", resp.GetHandle(), resp.GetCode())
	for _, e := range resp.GetErrors() {
		fmt.Println(e.GetCode(), e.GetKeyword(), e.GetSchemaPath())
	}
	// Unordered output:
	// handle "", code ERROR_CODE_UNSUPPORTED_CAPABILITY
	// ERROR_CODE_UNSUPPORTED_CAPABILITY pattern /properties/q/pattern
	// ERROR_CODE_UNSUPPORTED_CAPABILITY maxLength /properties/tags/items/maxLength
}

func ExampleClient_Validate() {
	c, stop := exampleClient()
	defer stop()
	ctx := context.Background()

	compiled, err := c.Compile(ctx, `{"type":"object","properties":{
		"city":{"type":"string"},"days":{"type":"integer","minimum":1}},"required":["city"]}`)
	if err != nil {
		log.Fatal(err)
	}
	// Invalid arguments are an answer, not an error.
	resp, err := c.Validate(ctx, compiled.GetHandle(), `{"city":"Oslo","days":0}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("valid:", resp.GetValid(), resp.GetCode())
	for _, e := range resp.GetErrors() {
		fmt.Printf("%s at %q\n", e.GetKeyword(), e.GetInstancePath())
	}

	// A handle the server does not hold fails the call.
	_, err = c.Validate(ctx, "tg1_0000000000000000000000000000000000000000000000000000000000000000", `{}`)
	fmt.Println(status.Code(err))
	// Output:
	// valid: false ERROR_CODE_VALIDATION
	// minimum at "/days"
	// NotFound
}

func ExampleClient_Validator() {
	// The Validator's connection reaches whichever replica is current; a
	// restarted replica has an empty schema store.
	var current atomic.Pointer[replica]
	current.Store(startReplica(server.Config{}))
	defer func() { current.Load().stop() }()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			return current.Load().dial(ctx, addr)
		}))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	c := client.New(conn)
	ctx := context.Background()
	v := c.Validator()

	handle, _, err := v.Register(ctx, `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)
	if err != nil {
		log.Fatal(err)
	}

	// The replica restarts and forgets every handle. The example waits
	// until the connection has seen the old replica go: a call sent before
	// that would fail Unavailable on the dying connection instead.
	current.Swap(startReplica(server.Config{})).stop()
	conn.WaitForStateChange(ctx, connectivity.Ready)
	_, err = c.Validate(ctx, handle, `{"city":"Oslo"}`)
	fmt.Println("Client.Validate:", status.Code(err))

	// The Validator sends the schema again and retries once.
	resp, err := v.Validate(ctx, handle, `{"city":"Oslo"}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("Validator.Validate:", resp.GetValid(), resp.GetHandle() == handle)
	// Output:
	// Client.Validate: NotFound
	// Validator.Validate: true true
}

func ExampleValidator_Register() {
	c, stop := exampleClient()
	defer stop()

	_, _, err := c.Validator().Register(context.Background(), `{"type":"object","properties":{"q":{"type":"string","format":"email"}}}`)
	var se *client.SchemaError
	if errors.As(err, &se) {
		for _, e := range se.Response.GetErrors() {
			fmt.Println(e.GetCode(), e.GetKeyword(), e.GetSchemaPath())
		}
	}
	// Output:
	// ERROR_CODE_UNSUPPORTED_CAPABILITY format /properties/q/format
}

func ExampleValidator_ValidateSchema() {
	c, stop := exampleClient()
	defer stop()
	v := c.Validator()

	const schema = `{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}`
	for _, args := range []string{`{"n":1}`, `{"n":1.5}`, `{"m":1}`} {
		resp, err := v.ValidateSchema(context.Background(), schema, args)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(args, " valid=", resp.GetValid())
		for _, e := range resp.GetErrors() {
			fmt.Printf(" %s@%q", e.GetKeyword(), e.GetInstancePath())
		}
		fmt.Println()
	}
	// Output:
	// {"n":1} valid=true
	// {"n":1.5} valid=false type@"/n"
	// {"m":1} valid=false additionalProperties@""
}

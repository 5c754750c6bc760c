package client

import (
	"context"
	"io"
	"iter"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// WithOutputProfile compiles ValidateOutputStream's schema with profile p.
// Default toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE, the profile of LLM
// structured output; a value the server does not know ends the stream with
// codes.InvalidArgument.
func WithOutputProfile(p toolgatev1.Profile) StreamOption {
	return streamOptionFunc(func(cfg *streamConfig) {
		cfg.outputProfile = p
	})
}

// WithStripCodeFence lets ValidateOutputStream (and ValidateOutputEvents)
// accept an answer wrapped in one Markdown code fence (``` or ```json, on
// lines of their own): the fence's bytes are skipped, offsets still count
// from the answer's first byte. By default a fence, like any text before
// the JSON, is a finding with keyword "json" at its first byte.
func WithStripCodeFence() StreamOption {
	return streamOptionFunc(func(cfg *streamConfig) {
		cfg.stripFence = true
	})
}

// ValidateOutputStream validates a provider's structured-output stream
// while the model generates it: the answer is the message text (OpenAI
// response_format, Responses text.format, Anthropic structured outputs,
// Gemini responseSchema, Bedrock and Cohere JSON text), and each choice,
// candidate or message is one JSON document, checked against schemaJSON.
// body and p are as for ValidateProviderStream, and so are the sequence,
// its errors and its ownership of body.
//
// The schema travels inline with the stream (bindable output profile
// unless WithOutputProfile says otherwise), so any replica validates it;
// one that does not compile ends the stream with codes.InvalidArgument.
// The sequence yields one CallResult per answer as soon as its verdict is
// known, with CallId "output/<n>" (n the choice or candidate index, 0 when
// there is one, or an OpenAI Responses message's output_index, 1 after a
// reasoning item) and an empty ToolName: at the first byte no valid answer
// could follow (Early true, Errors[0].Offset that byte), which lets the
// caller stop the generation, or when the message ends (an OpenAI Chat
// choice's with the stream, at "[DONE]" or the body's end, since
// openai-python appends text that comes after a choice's finish_reason to
// its message). Reasoning is never
// part of the answer; a refusal is a result whose Errors[0] has keyword
// "refusal"; an answer cut off by the token limit is incomplete (keyword
// "json"). A model that writes no text (it only calls tools) yields no
// output result: that is no answer. Tool calls in the stream are results
// too: bind their tools WithToolset, or they get keyword "tool_name".
func (c *Client) ValidateOutputStream(ctx context.Context, p toolgatev1.Provider, body io.Reader, schemaJSON string, opts ...StreamOption) iter.Seq2[*toolgatev1.CallResult, error] {
	cfg := outputConfig(opts)
	return c.streamSeq(ctx, p, body, cfg, cfg.outputBinds(schemaJSON))
}

// outputConfig is the configuration of an output stream: the bindable
// output profile unless opts say otherwise.
func outputConfig(opts []StreamOption) streamConfig {
	cfg := streamConfig{outputProfile: toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE}
	for _, o := range opts {
		o.applyToStream(&cfg)
	}
	return cfg
}

// outputBinds binds schemaJSON to the stream's output, and the toolset's
// tools.
func (cfg *streamConfig) outputBinds(schemaJSON string) []*toolgatev1.StreamBind {
	return append([]*toolgatev1.StreamBind{{
		OutputSchema: &toolgatev1.CompileSchemaRequest{
			Profile: cfg.outputProfile,
			Schema:  &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: schemaJSON},
		},
		StripCodeFence: cfg.stripFence,
	}}, cfg.binds(nil)...)
}

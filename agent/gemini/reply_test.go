package gemini

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/jido-run/jido/agent"
)

// candidate is a response with one candidate of parts.
func candidate(finish genai.FinishReason, message string, parts ...*genai.Part) *genai.GenerateContentResponse {
	c := &genai.Candidate{FinishReason: finish, FinishMessage: message}
	if len(parts) > 0 {
		c.Content = &genai.Content{Role: genai.RoleModel, Parts: parts}
	}
	return &genai.GenerateContentResponse{Candidates: []*genai.Candidate{c}}
}

// The wire tests in gemini_test.go cannot send a finishMessage through the SDK, which
// drops it for the Gemini API; these cases feed reply the SDK's types directly.
func TestReplyMessage(t *testing.T) {
	tests := []struct {
		name  string
		resps []*genai.GenerateContentResponse
		want  agent.Message
	}{
		{
			name:  "malformed call with its message",
			resps: []*genai.GenerateContentResponse{candidate(genai.FinishReasonMalformedFunctionCall, "Malformed function call: f(")},
			want: agent.Message{Role: agent.Assistant, Calls: []agent.ToolCall{{
				ID: "call-1", Name: "invalid", Invalid: "the model produced a malformed function call: Malformed function call: f(",
			}}},
		},
		{
			name: "malformed call after some text",
			resps: []*genai.GenerateContentResponse{
				candidate("", "", genai.NewPartFromText("I will call f.")),
				candidate(genai.FinishReasonMalformedFunctionCall, ""),
			},
			want: agent.Message{Role: agent.Assistant, Text: "I will call f.", Calls: []agent.ToolCall{{
				ID: "call-1", Name: "invalid", Invalid: "the model produced a malformed function call",
			}}},
		},
		{
			name:  "stopped with a message",
			resps: []*genai.GenerateContentResponse{candidate(genai.FinishReasonProhibitedContent, "not allowed")},
			want:  agent.Message{Role: agent.Assistant, Text: "(the model stopped without a reply: finish reason PROHIBITED_CONTENT: not allowed)"},
		},
		{
			name:  "cut by the token limit after some text",
			resps: []*genai.GenerateContentResponse{candidate(genai.FinishReasonMaxTokens, "", genai.NewPartFromText("Partial"))},
			want:  agent.Message{Role: agent.Assistant, Text: "Partial"},
		},
		{
			name: "thoughts and nil parts skipped",
			resps: []*genai.GenerateContentResponse{
				candidate("", "", &genai.Part{Text: "hmm", Thought: true}, nil, genai.NewPartFromText("Answer")),
				{Candidates: []*genai.Candidate{nil}},
				{}, // usage metadata only
				nil,
				candidate(genai.FinishReasonStop, ""),
			},
			want: agent.Message{Role: agent.Assistant, Text: "Answer"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			var streamed string
			r := reply{
				newID:  func() string { n++; return fmt.Sprintf("call-%d", n) },
				onText: func(s string) { streamed += s },
			}
			for _, resp := range tt.resps {
				r.add(resp)
			}
			got, err := r.message()
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.want.Text, streamed, "what is streamed adds up to the Text")
		})
	}
}

func TestSignatureRoundTrip(t *testing.T) {
	sig := []byte{0, 1, 2, 0xfe, 0xff, '"'}
	sealed := sealSignature(sig)
	assert.JSONEq(t, `{"thought_signature":"AAEC/v8i"}`, string(sealed))
	assert.Equal(t, sig, openSignature(sealed))

	assert.Nil(t, sealSignature(nil))
	assert.Nil(t, openSignature(nil))
	assert.Nil(t, openSignature([]byte(`not json`)))
}

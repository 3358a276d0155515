package gemini

import (
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/stretchr/testify/assert"
	"google.golang.org/genai"
)

// TestReplyUsage checks that the last usage metadata of a stream is the reply's usage,
// thoughts counted with the completion, and that a stream without it reports none.
func TestReplyUsage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		usage []*genai.GenerateContentResponseUsageMetadata
		want  *agent.Usage
	}{
		{name: "none"},
		{name: "the last of the stream", usage: []*genai.GenerateContentResponseUsageMetadata{
			{PromptTokenCount: 12},
			{PromptTokenCount: 12, CandidatesTokenCount: 5, ThoughtsTokenCount: 3},
		}, want: &agent.Usage{PromptTokens: 12, CompletionTokens: 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := reply{newID: func() string { return "id" }}
			r.add(candidate("", "", genai.NewPartFromText("hi")))
			for _, u := range tc.usage {
				resp := candidate(genai.FinishReasonStop, "")
				resp.UsageMetadata = u
				r.add(resp)
			}
			m, err := r.message()
			assert.NoError(t, err)
			assert.Equal(t, tc.want, m.Usage)
		})
	}
}

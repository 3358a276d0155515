package openai

import (
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsage checks that the provider asks for the usage and reports it when the server
// sends it, and reports none when it does not.
func TestUsage(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Step{Text: []string{"hi"}, Usage: &[2]int{40, 7}}, openaitest.Step{Text: []string{"hi"}})
	defer srv.Close()
	p := newProvider(t, srv, "")
	reply, err := p.Complete(t.Context(), ask("hi"), nil)
	require.NoError(t, err)
	assert.Equal(t, &agent.Usage{PromptTokens: 40, CompletionTokens: 7}, reply.Usage)
	assert.Contains(t, string(srv.Requests()[0].Body), `"stream_options":{"include_usage":true}`)

	reply, err = p.Complete(t.Context(), ask("hi"), nil)
	require.NoError(t, err)
	assert.Nil(t, reply.Usage)
}

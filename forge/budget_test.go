package forge

import (
	"context"
	"errors"
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// usageModel answers every request with a text reply that cost the given tokens.
type usageModel struct {
	tokens   int
	requests int
}

func (m *usageModel) Name() string { return "usage" }

func (m *usageModel) Complete(context.Context, agent.Request, func(string)) (agent.Message, error) {
	m.requests++
	return agent.Message{Role: agent.Assistant, Text: "ok", Usage: &agent.Usage{PromptTokens: m.tokens - 1, CompletionTokens: 1}}, nil
}

// TestTokenBudget: requests go to the model until their reported usage reaches the
// budget; the next one is refused without reaching it.
func TestTokenBudget(t *testing.T) {
	model := &usageModel{tokens: 400}
	b := &tokenBudget{Provider: model, max: 1000}
	for range 3 {
		_, err := b.Complete(t.Context(), agent.Request{}, nil)
		require.NoError(t, err)
	}
	_, err := b.Complete(t.Context(), agent.Request{}, nil)
	assert.True(t, errors.Is(err, errTokenBudget), "%v", err)
	assert.Contains(t, err.Error(), "1200 tokens of 1000")
	assert.Equal(t, 3, model.requests, "the refused request never reached the model")
}

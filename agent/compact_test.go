package agent

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// usageProvider answers with fixed messages, the usage included.
type usageProvider struct {
	replies []Message
	asked   []Request
}

func (p *usageProvider) Name() string { return "usage" }

func (p *usageProvider) Complete(_ context.Context, req Request, onText func(string)) (Message, error) {
	p.asked = append(p.asked, req)
	if len(p.replies) == 0 {
		return Message{}, errors.New("no reply left")
	}
	m := p.replies[0]
	p.replies = p.replies[1:]
	if onText != nil {
		onText(m.Text)
	}
	return m, nil
}

func TestUsageIsSummed(t *testing.T) {
	p := &usageProvider{replies: []Message{
		{Text: "one", Usage: &Usage{PromptTokens: 10, CompletionTokens: 2}},
		{Text: "two"},
		{Text: "three", Usage: &Usage{PromptTokens: 30, CompletionTokens: 4}},
	}}
	a := newAgent(p, nil, nil)
	for _, q := range []string{"a", "b", "c"} {
		_, err := a.Send(t.Context(), q)
		require.NoError(t, err)
	}
	u, requests, reported := a.Usage()
	assert.Equal(t, Usage{PromptTokens: 40, CompletionTokens: 6}, u)
	assert.Equal(t, 3, requests)
	assert.Equal(t, 2, reported)
}

func TestCompact(t *testing.T) {
	t.Run("the summary replaces the conversation", func(t *testing.T) {
		p := &usageProvider{replies: []Message{{Text: "hello"}, {Text: "You greeted me."}}}
		rec := &recorder{}
		a := newAgent(p, nil, rec)
		_, err := a.Compact(t.Context())
		assert.ErrorIs(t, err, ErrNothingToCompact)
		_, err = a.Send(t.Context(), "hi")
		require.NoError(t, err)
		sum, err := a.Compact(t.Context())
		require.NoError(t, err)
		assert.Equal(t, "You greeted me.", sum)
		h := a.History()
		require.Len(t, h, 2)
		assert.Equal(t, User, h[0].Role)
		assert.Contains(t, h[0].Text, "Summarise our conversation")
		assert.Equal(t, Message{Role: Assistant, Text: "You greeted me."}, h[1])
		require.Len(t, p.asked, 2)
		assert.Len(t, p.asked[1].Messages, 3, "the model saw the whole conversation and the request")
		assert.Contains(t, rec.texts(EventText), "You greeted me.", "the summary streams")
	})
	t.Run("a failure keeps the conversation", func(t *testing.T) {
		p := &usageProvider{replies: []Message{{Text: "hello"}}}
		a := newAgent(p, nil, nil)
		_, err := a.Send(t.Context(), "hi")
		require.NoError(t, err)
		_, err = a.Compact(t.Context())
		require.Error(t, err)
		assert.Len(t, a.History(), 2)
	})
}

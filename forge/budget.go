package forge

import (
	"context"
	"errors"
	"fmt"

	"github.com/jido-run/jido/agent"
)

// errTokenBudget ends an agent whose model requests used its tokens.
var errTokenBudget = errors.New("forge: the agent used its token budget")

// tokenBudget is an agent's model with a budget: once the replies have used max tokens
// (prompt and completion, as the service reports them), the next request is refused and
// the agent ends (its task attempt fails). A service that reports no usage is not held.
type tokenBudget struct {
	agent.Provider
	max  int
	used int
}

// Complete asks the model unless the budget is used up, and counts what the reply cost.
func (b *tokenBudget) Complete(ctx context.Context, req agent.Request, onText func(string)) (agent.Message, error) {
	if b.used >= b.max {
		return agent.Message{}, fmt.Errorf("%w: %d tokens of %d", errTokenBudget, b.used, b.max)
	}
	m, err := b.Provider.Complete(ctx, req, onText)
	if m.Usage != nil {
		b.used += m.Usage.PromptTokens + m.Usage.CompletionTokens
	}
	return m, err
}

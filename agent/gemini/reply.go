package gemini

import (
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/genai"

	"github.com/jido-run/jido/agent"
)

// invalidCall names the call that stands for a function call the model could not
// produce: the loop does not run it (ToolCall.Invalid is set) and tells the model why.
const invalidCall = "invalid"

// reply gathers the responses of one request (the chunks of a stream, or a single
// response) into the assistant's Message. Only the first candidate counts: the provider
// never asks for more.
type reply struct {
	newID  func() string
	onText func(string) // may be nil

	text          strings.Builder
	calls         []agent.ToolCall
	candidates    bool // some response had a candidate
	finish        genai.FinishReason
	finishMessage string
	blocked       genai.BlockedReason
	usage         *agent.Usage // the last usage metadata of the stream (it is cumulative)
}

// add takes in one response: its text parts (thoughts skipped) go to onText at once, its
// function calls are kept with their thought signatures.
func (r *reply) add(resp *genai.GenerateContentResponse) {
	if resp == nil {
		return
	}
	if u := resp.UsageMetadata; u != nil && (u.PromptTokenCount > 0 || u.CandidatesTokenCount > 0) {
		r.usage = &agent.Usage{PromptTokens: int(u.PromptTokenCount), CompletionTokens: int(u.CandidatesTokenCount + u.ThoughtsTokenCount)}
	}
	if resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != "" {
		r.blocked = resp.PromptFeedback.BlockReason
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		return
	}
	cand := resp.Candidates[0]
	r.candidates = true
	if cand.FinishReason != "" {
		r.finish, r.finishMessage = cand.FinishReason, cand.FinishMessage
	}
	if cand.Content == nil {
		return
	}
	for _, part := range cand.Content.Parts {
		switch {
		case part == nil || part.Thought:
		case part.FunctionCall != nil:
			id := part.FunctionCall.ID
			if id == "" {
				id = r.newID()
			}
			r.calls = append(r.calls, agent.ToolCall{
				ID:     id,
				Name:   part.FunctionCall.Name,
				Args:   part.FunctionCall.Args,
				Opaque: sealSignature(part.ThoughtSignature),
			})
		case part.Text != "":
			r.say(part.Text)
		}
	}
}

// say adds text to the reply and passes it on.
func (r *reply) say(text string) {
	r.text.WriteString(text)
	if r.onText != nil {
		r.onText(text)
	}
}

// message is the assistant's Message, or an *agent.APIError when the service answered
// with no candidate at all. A model that stopped without text or calls (a safety block,
// the token limit) gets a Text saying so; a malformed function call becomes an invalid
// ToolCall, so that the loop tells the model and it can try again.
func (r *reply) message() (agent.Message, error) {
	if !r.candidates {
		return agent.Message{}, r.noCandidates()
	}
	switch {
	case r.finish == genai.FinishReasonMalformedFunctionCall && len(r.calls) == 0:
		why := "the model produced a malformed function call"
		if r.finishMessage != "" {
			why += ": " + r.finishMessage
		}
		r.calls = []agent.ToolCall{{ID: r.newID(), Name: invalidCall, Invalid: why}}
	case r.text.Len() == 0 && len(r.calls) == 0 && r.finish != genai.FinishReasonStop && r.finish != "":
		why := "(the model stopped without a reply: finish reason " + string(r.finish)
		if r.finishMessage != "" {
			why += ": " + r.finishMessage
		}
		r.say(why + ")")
	}
	return agent.Message{Role: agent.Assistant, Text: r.text.String(), Calls: r.calls, Usage: r.usage}, nil
}

// noCandidates is the error for a response without candidates, which happens when the
// prompt itself was blocked.
func (r *reply) noCandidates() *agent.APIError {
	msg := "the response has no candidates"
	if r.blocked != "" {
		msg = fmt.Sprintf("%s: the prompt was blocked (%s)", msg, r.blocked)
	}
	return &agent.APIError{Provider: providerName, Status: http.StatusOK, Message: msg} // answered: no retry
}

package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/agent/gemini"
	"github.com/jido-run/jido/agent/offline"
	"github.com/jido-run/jido/agent/openai"
	"github.com/jido-run/jido/agent/textproto"
	"github.com/jido-run/jido/chat"
	"github.com/jido-run/jido/interpret"
	"github.com/jido-run/jido/manager"
)

// providerFlags choose the model behind chat and ask.
type providerFlags struct {
	provider     string
	model        string
	baseURL      string
	textProtocol bool
	planTimeout  time.Duration // --provider interpreter: the model's budget for a plan
}

func (f *providerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.provider, "provider", "auto", "gemini, openai (any OpenAI-compatible server), interpreter, offline, or auto: gemini when GEMINI_API_KEY is set, else offline")
	fs.StringVar(&f.model, "model", "", "the model (gemini: default "+gemini.DefaultModel+"; openai: required)")
	fs.StringVar(&f.baseURL, "base-url", "", "the service's base URL (openai: e.g. http://localhost:11434/v1; gemini: a proxy or test server)")
	fs.BoolVar(&f.textProtocol, "text-protocol", false, "talk to the model with fenced tool-call blocks instead of native function calling")
	fs.DurationVar(&f.planTimeout, "plan-timeout", interpret.DefaultBudget, "--provider interpreter: the time the model has to plan, one retry of a 429 or 5xx included; then the rules answer")
}

// geminiKey is the Gemini API key from the environment.
func geminiKey() string { return cmp.Or(os.Getenv("GEMINI_API_KEY"), os.Getenv("GOOGLE_API_KEY")) }

// systemPrompt tells the model where it works and how.
const systemPrompt = `You are jido, a coding agent working in the project at %s. Use the tools to look at and change the project: paths are relative to the project root, and nothing outside it can be reached. Read a file before you edit it. Prefer small, precise edits. When a tool fails, read its error and recovery hints and adapt; do not repeat a denied call. Answer concisely.`

// newAgent builds the agent for the flags over the session's tools; notice is what the
// user should be told once (offline mode).
func (o *chatOptions) newAgent(ctx context.Context, exec *chat.Executor, s *manager.Session) (*agent.Agent, string, error) {
	p, notice, err := o.providerFlags.open(ctx, s)
	if err != nil {
		return nil, "", err
	}
	if o.textProtocol {
		p = textproto.Wrap(p)
	}
	o.offer = func(s *manager.Session) []agent.ToolSpec { return agent.Specs(s.Tools()) }
	if _, offline := p.(*offline.Provider); offline {
		// The interpreter plans in jido's own names, whatever the profile, and reads no schema.
		o.offer = func(s *manager.Session) []agent.ToolSpec { return agent.Names(s.CanonicalTools()) }
		exec.Canonical = true
	}
	root, _ := os.Getwd()
	if o.root != "." {
		root = o.root
	}
	return &agent.Agent{Provider: p, Exec: exec, Tools: o.offer(s), System: fmt.Sprintf(systemPrompt, root)}, notice, nil
}

// open builds the provider the flags name.
func (f *providerFlags) open(ctx context.Context, s *manager.Session) (agent.Provider, string, error) {
	if f.planTimeout <= 0 {
		return nil, "", fmt.Errorf("--plan-timeout must be positive, got %v", f.planTimeout)
	}
	key := geminiKey()
	kind := f.provider
	if kind == "auto" {
		kind = "offline"
		if key != "" {
			kind = "gemini"
		}
	}
	switch kind {
	case "gemini":
		p, err := gemini.New(ctx, gemini.Config{APIKey: key, Model: f.model, BaseURL: f.baseURL})
		return p, "", err
	case "openai":
		if f.model == "" {
			return nil, "", fmt.Errorf("--provider openai needs --model (the server's model name)")
		}
		p, err := openai.New(openai.Config{BaseURL: cmp.Or(f.baseURL, os.Getenv("OPENAI_BASE_URL")), APIKey: os.Getenv("OPENAI_API_KEY"), Model: f.model})
		return p, "", err
	case "interpreter", "offline":
		in := &interpret.Interpreter{Tools: s.CanonicalTools(), Budget: f.planTimeout}
		notice := "No GEMINI_API_KEY set: jido runs offline, answering with its rule-based interpreter (set GEMINI_API_KEY to chat with Gemini)."
		if kind == "interpreter" {
			if key == "" {
				return nil, "", fmt.Errorf("--provider interpreter plans with Gemini: set GEMINI_API_KEY, or use --provider offline")
			}
			g, err := gemini.New(ctx, gemini.Config{APIKey: key, Model: f.model, BaseURL: f.baseURL})
			if err != nil {
				return nil, "", err
			}
			in.Model, notice = g, ""
		}
		return offline.New(in), notice, nil
	}
	return nil, "", fmt.Errorf("unknown provider %q (want gemini, openai, interpreter, offline or auto)", f.provider)
}

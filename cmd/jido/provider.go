package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/agent/gemini"
	"github.com/jido-run/jido/agent/offline"
	"github.com/jido-run/jido/agent/openai"
	"github.com/jido-run/jido/agent/textproto"
	"github.com/jido-run/jido/chat"
	"github.com/jido-run/jido/instructions"
	"github.com/jido-run/jido/interpret"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tools/definitions"
	"golang.org/x/term"
)

// providerFlags choose the model behind chat and ask, over the config's [model] table.
type providerFlags struct {
	provider     string
	model        string
	baseURL      string
	textProtocol bool
	planTimeout  time.Duration // --provider interpreter: the model's budget for a plan
	// instructions are the project's instruction files (AGENTS.md, ...) in the system
	// prompt, set by newAgent: a chat's /context lists them (Describe).
	instructions *instructions.Set
	// config is the config files' [model], under the flags (set by newAgent).
	config policy.ModelConfig
}

func (f *providerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.provider, "provider", "", "gemini, openai (any OpenAI-compatible server), interpreter, offline, or auto: gemini when GEMINI_API_KEY is set, else offline (default: the config's [model] provider, else auto)")
	fs.StringVar(&f.model, "model", "", "the model (default: the config's [model] name; gemini: else "+gemini.DefaultModel+"; openai: required)")
	fs.StringVar(&f.baseURL, "base-url", "", "the service's base URL (default: the config's [model] base_url; openai: else $OPENAI_BASE_URL, e.g. http://localhost:11434/v1; gemini: a proxy or test server)")
	fs.BoolVar(&f.textProtocol, "text-protocol", false, "talk to the model with fenced tool-call blocks instead of native function calling")
	fs.DurationVar(&f.planTimeout, "plan-timeout", interpret.DefaultBudget, "--provider interpreter: the time the model has to plan, one retry of a 429 or 5xx included; then the rules answer")
}

// geminiKey is the Gemini API key from the environment.
func geminiKey() string { return cmp.Or(os.Getenv("GEMINI_API_KEY"), os.Getenv("GOOGLE_API_KEY")) }

// systemPrompt tells the model where it works and how.
const systemPrompt = `You are jido, a coding agent working in the project at %s. Use the tools to look at and change the project: paths are relative to the project root, and nothing outside it can be reached. Read a file before you edit it. Prefer small, precise edits. When a tool fails, read its error and recovery hints and adapt; do not repeat a denied call. Answer concisely.`

// offlineNotice is what the user is told when jido answers offline because no key is set.
const offlineNotice = "No GEMINI_API_KEY set: jido runs offline, answering with its rule-based interpreter (set GEMINI_API_KEY to chat with Gemini, or a [model] in ~/.config/jido/config.toml)."

// newAgent builds the agent for the flags and the config's [model] over the session's
// tools; notice is what the user should be told (offline mode chosen for want of a key,
// once per terminal session).
func (o *chatOptions) newAgent(ctx context.Context, exec *chat.Executor, s *manager.Session) (*agent.Agent, string, error) {
	perms, err := loadPermissions(o.root.dir, "")
	if err != nil {
		return nil, "", err
	}
	o.config = perms.Model()
	p, notice, err := o.providerFlags.open(ctx, s)
	if err != nil {
		return nil, "", err
	}
	if notice != "" && !noticeDue(o.root.dir) {
		notice = ""
	}
	if o.textProtocol {
		p = textproto.Wrap(p)
	}
	o.offer = func(s *manager.Session) []agent.ToolSpec { return agent.Specs(s.Tools()) }
	if _, offline := p.(*offline.Provider); offline {
		// The interpreter plans in jido's own names, whatever the profile, and reads no schema
		// (nor a system prompt).
		o.offer = func(s *manager.Session) []agent.ToolSpec { return agent.Names(s.CanonicalTools()) }
		exec.Canonical = true
		return &agent.Agent{Provider: p, Exec: exec, Tools: o.offer(s), System: o.systemPrompt()}, notice, nil
	}
	a := &agent.Agent{Provider: p, Tools: o.offer(s)}
	o.instructions = instructions.New(sessionReader(exec), instructions.DefaultBudget)
	o.instructions.LoadRoot(ctx)
	base := o.systemPrompt()
	a.System = base + o.instructions.Prompt()
	// The files a call names bring their directories' instruction files into the prompt,
	// from the next request on.
	a.Exec = &touchingExecutor{Executor: exec, touched: func(ctx context.Context, paths []string) {
		if o.instructions.Touch(ctx, paths...) {
			a.System = base + o.instructions.Prompt()
		}
	}}
	return a, notice, nil
}

// rootPath is the project root as the system prompt names it: absolute.
func (o *chatOptions) rootPath() string {
	if root, err := filepath.Abs(o.root.dir); err == nil {
		return root
	}
	return o.root.dir
}

// systemPrompt is the prompt's part that says where the model works: the project, and the
// directory the user stands in when it is not the root.
func (o *chatOptions) systemPrompt() string {
	p := fmt.Sprintf(systemPrompt, o.rootPath())
	if o.root.cwd != "" {
		p += fmt.Sprintf(" The user works in its directory %s: relative paths you pass resolve from there (results still name paths from the root).", o.root.cwd)
	}
	return p
}

// sessionReader reads instruction files through the current session of exec, as the
// read_file tool does: confined to the root, policy applied, secrets redacted.
func sessionReader(exec *chat.Executor) instructions.ReadFunc {
	return func(ctx context.Context, path string) (string, error) {
		res := exec.Session().CallCanonical(ctx, manager.ToolCall{Name: "read_file", Args: map[string]any{
			"path": path, "line_numbers": false, "max_bytes": instructions.DefaultBudget, "limit": 100000,
		}})
		r, err := manager.ResultAs[definitions.ReadFileResult](res)
		if err != nil {
			return "", err
		}
		return r.Content, nil
	}
}

// touchingExecutor tells touched the paths each call names once it ran.
type touchingExecutor struct {
	agent.Executor
	touched func(context.Context, []string)
}

func (e *touchingExecutor) Execute(ctx context.Context, call agent.ToolCall) agent.ToolResult {
	res := e.Executor.Execute(ctx, call)
	if paths := callPaths(call.Args); len(paths) > 0 {
		e.touched(ctx, paths)
	}
	return res
}

// callPaths are the file paths among a call's arguments: the strings of its keys named
// path or ending in _path or Path (file_path, filePath), and the strings of a paths list.
func callPaths(args map[string]any) []string {
	var out []string
	for k, v := range args {
		switch v := v.(type) {
		case string:
			if k == "path" || strings.HasSuffix(k, "_path") || strings.HasSuffix(k, "Path") {
				out = append(out, v)
			}
		case []any:
			if k == "paths" {
				for _, p := range v {
					if s, ok := p.(string); ok {
						out = append(out, s)
					}
				}
			}
		}
	}
	return out
}

// modelChoice is the model to talk to: the flags over the config's [model].
type modelChoice struct {
	provider, name, baseURL string
	keyEnv                  string // the environment variable holding the key ("" for the provider's usual ones)
}

// choose decides the model from the flags over cfg. A --provider other than the config's
// drops the config's name, URL and key variable, which belong to its provider.
func (f *providerFlags) choose(cfg policy.ModelConfig) modelChoice {
	if f.provider != "" && cfg.Provider != "" && f.provider != cfg.Provider {
		cfg = policy.ModelConfig{}
	}
	return modelChoice{
		provider: cmp.Or(f.provider, cfg.Provider, "auto"),
		name:     cmp.Or(f.model, cfg.Name),
		baseURL:  cmp.Or(f.baseURL, cfg.BaseURL),
		keyEnv:   cfg.APIKeyEnv,
	}
}

// key is the API key: from the [model]'s api_key_env when it names one, else from the
// provider's usual variables (fallback).
func (c modelChoice) key(fallback func() string) (string, error) {
	if c.keyEnv == "" {
		return fallback(), nil
	}
	if v := os.Getenv(c.keyEnv); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("the config's [model] api_key_env names $%s, which is not set: export %s=<your key>", c.keyEnv, c.keyEnv)
}

// open builds the provider the flags and the config's [model] (f.config) name; the notice
// is set when jido answers offline for want of a key (not when offline was asked for).
func (f *providerFlags) open(ctx context.Context, s *manager.Session) (agent.Provider, string, error) {
	if f.planTimeout <= 0 {
		return nil, "", fmt.Errorf("--plan-timeout must be positive, got %v", f.planTimeout)
	}
	c := f.choose(f.config)
	kind := c.provider
	switch kind {
	case "auto":
		key, err := c.key(geminiKey)
		if err != nil {
			return nil, "", err
		}
		if key == "" {
			in := &interpret.Interpreter{Tools: s.CanonicalTools(), Budget: f.planTimeout}
			return offline.New(in), offlineNotice, nil
		}
		p, err := gemini.New(ctx, gemini.Config{APIKey: key, Model: c.name, BaseURL: c.baseURL})
		return p, "", err
	case "gemini":
		key, err := c.key(geminiKey)
		if err != nil {
			return nil, "", err
		}
		p, err := gemini.New(ctx, gemini.Config{APIKey: key, Model: c.name, BaseURL: c.baseURL})
		return p, "", err
	case "openai":
		if c.name == "" {
			return nil, "", fmt.Errorf("--provider openai needs --model (the server's model name), or name in the config's [model]")
		}
		base := cmp.Or(c.baseURL, os.Getenv("OPENAI_BASE_URL"))
		if base == "" {
			return nil, "", fmt.Errorf("--provider openai needs the server's URL: --base-url (e.g. http://localhost:11434/v1), base_url in the config's [model], or $OPENAI_BASE_URL")
		}
		key, err := c.key(func() string { return os.Getenv("OPENAI_API_KEY") })
		if err != nil {
			return nil, "", err
		}
		p, err := openai.New(openai.Config{BaseURL: base, APIKey: key, Model: c.name})
		return p, "", err
	case "interpreter", "offline":
		in := &interpret.Interpreter{Tools: s.CanonicalTools(), Budget: f.planTimeout}
		if kind == "interpreter" {
			key, err := c.key(geminiKey)
			if err != nil {
				return nil, "", err
			}
			if key == "" {
				return nil, "", fmt.Errorf("--provider interpreter plans with Gemini: set GEMINI_API_KEY, or use --provider offline")
			}
			g, err := gemini.New(ctx, gemini.Config{APIKey: key, Model: c.name, BaseURL: c.baseURL})
			if err != nil {
				return nil, "", err
			}
			in.Model = g
		}
		return offline.New(in), "", nil
	}
	return nil, "", fmt.Errorf("unknown provider %q (want gemini, openai, interpreter, offline or auto)", kind)
}

// The offline notice is shown once per terminal session: jido keeps a marker file per
// session in its state directory ($XDG_STATE_HOME/jido/notices/). The session is the
// terminal emulator's ($TERM_SESSION_ID: macOS Terminal, iTerm2; $WT_SESSION: Windows
// Terminal) or else the process session of the shell jido runs in (getsid: one per
// terminal window or tab, as the shell leads it). A marker older than noticeTTL is stale
// (session ids are reused), and the notice is shown again. Where no session can be told,
// and on non-terminals, never.

// noticeTTL is how long a notice marker holds.
const noticeTTL = 24 * time.Hour

// noticeDue reports whether the offline notice should be shown now, and if so records
// that it was: stderr is a terminal and this terminal session was not told yet.
func noticeDue(root string) bool {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return false
	}
	key := terminalSession()
	if key == "" {
		return true
	}
	dir, err := projectState(root, "notices")
	if err != nil {
		return true
	}
	return markOnce(filepath.Dir(dir), "offline-"+key, time.Now())
}

// markOnce creates the marker name in dir and reports true, unless a marker younger than
// noticeTTL is there already.
func markOnce(dir, name string, now time.Time) bool {
	path := filepath.Join(dir, name)
	if st, err := os.Stat(path); err == nil && now.Sub(st.ModTime()) < noticeTTL {
		return false
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return true
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil && !errors.Is(err, fs.ErrExist) {
		return true
	}
	_ = os.Chtimes(path, now, now)
	return true
}

// unsafeKey is what a session id may not hold in a file name.
var unsafeKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]`) })

// terminalSession names the terminal session jido runs in, "" when it cannot tell.
func terminalSession() string {
	for _, v := range []string{"TERM_SESSION_ID", "WT_SESSION"} {
		if id := os.Getenv(v); id != "" {
			return strings.ToLower(v) + "-" + unsafeKey().ReplaceAllString(clipKey(id), "_")
		}
	}
	if sid := processSession(); sid > 0 {
		return "sid-" + strconv.Itoa(sid)
	}
	return ""
}

func clipKey(s string) string {
	if len(s) > 100 {
		return s[:100]
	}
	return s
}

// Package interpret turns a person's request ("what's in this directory?", "find all go
// files", "show lines 10 to 20 of main.go") into a plan of tool calls.
//
// With a language model, the Interpreter asks it for a JSON plan (PlanSchema) and checks
// every call against the session's tools, their schemas and the sandbox's path rules before
// anyone runs it; calls that fail are dropped with a note. Without a model, or when the
// model fails, a table of rules (Rules) recognizes the common read-only requests. The model
// has a latency budget (Interpreter.Budget, DefaultBudget): a 429 or 5xx is sent once more
// inside it, and when it runs out the rules answer at once, whatever the model does. Rules
// never plan a change to the project: deleting, writing, editing or running commands is
// left to a model, whose calls the user approves.
//
// A plan is advisory: its calls still go through the session's gate like any other.
package interpret

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jido-run/jido/tools/definitions"
)

// Context is what the conversation so far lets a query refer to.
type Context struct {
	LastFile    string   // the file last read or edited in the session ("current file", "this file", "it")
	LastListing []string // paths of the last listing ("these files"); directories end in "/"
	Dir         string   // the directory in focus ("here", "this directory"); "" = "."
}

// ToolPlan is one planned call.
type ToolPlan struct {
	Name       string         `json:"name"`
	Args       map[string]any `json:"args"`
	Confidence float64        `json:"confidence"`
	// Show, when set, says how the result answers the question, where it is not the
	// tool's plain output: ShowLineCount, ShowLargest, ShowNewest. Rules set it; a model's
	// plan never has it.
	Show string `json:"show,omitempty"`
	// About says in words what a search whose query is a generated regular expression
	// looks for ("the declarations of Run"), for showing its result.
	About string `json:"about,omitempty"`
	// Last, on a read_file that counts a file's lines, asks for the file's last Last lines
	// next ("the last 5 lines of x.go"; read_file cannot count from the end); on a
	// ShowLargest list_files, how many files to show.
	Last int `json:"last,omitempty"`
	// Then, on a glob that looks for the file a bare name means ("read client"), is the
	// call to make on the one file it finds, its path argument left out; when the glob
	// finds several, they are listed, when it finds none, that is said.
	Then *ToolPlan `json:"then,omitempty"`
}

// Values of ToolPlan.Show.
const (
	ShowLineCount = "line_count" // read_file: the number of lines, not the content
	ShowLargest   = "largest"    // list_files: the biggest files first, with their sizes
	ShowNewest    = "newest"     // glob: the files changed most recently, with their times
)

// Plan is the interpretation of a query: the calls to make, or why none.
type Plan struct {
	NeedsTools  bool       `json:"needs_tools"`
	Tools       []ToolPlan `json:"tools"`
	Rationale   string     `json:"rationale"`
	Notes       string     `json:"notes,omitempty"`
	Source      string     `json:"source"`                // "model" or "rules"
	Suggestions []string   `json:"suggestions,omitempty"` // for a query no tool fits: example phrasings that work
	// Fallback, when the rules answered although there is a model, says why its plan was
	// not used: FallbackTimeout, FallbackRateLimited, FallbackServerError, ... (Notes has
	// the error itself).
	Fallback string `json:"fallback,omitempty"`
	// ModelAttempts is the number of requests sent to the model for this plan: 2 when a
	// 429 or 5xx was retried, 0 without a model.
	ModelAttempts int `json:"model_attempts,omitempty"`
}

// Sources of a Plan.
const (
	SourceModel = "model"
	SourceRules = "rules"
)

// Model is a language model that answers a prompt with JSON matching a schema
// (agent/gemini's Provider.AskJSON). It should give up when ctx is done (the Interpreter
// stops waiting for it then in any case). Errors that wrap a *ServiceError say what the
// service answered, so that a 429 or 5xx can be retried.
type Model interface {
	AskJSON(ctx context.Context, prompt string, schema map[string]any) ([]byte, error)
}

// ErrInvalidPlan is the error of a model's answer that is not a usable plan.
var ErrInvalidPlan = errors.New("invalid plan")

// Interpreter interprets queries for one session. Its fields are read only; it is safe for
// concurrent use when its Model and Clean are.
type Interpreter struct {
	Model  Model                             // nil: rules only
	Budget time.Duration                     // the time the model has to plan, retry included; <= 0: DefaultBudget
	Tools  []*definitions.Tool               // the tools on offer (the session's); nil: definitions.All()
	Clean  func(path string) (string, error) // the sandbox's path check (security.Root.Clean); nil: a lexical check (no absolute path, no .. above the root)
}

// Interpret plans the tool calls that answer query. It never fails: when the model errs
// (after one retry of a 429 or 5xx), runs out of its budget or ctx, or answers with nothing
// usable, the rules answer, with a note and a Fallback saying why.
func (in *Interpreter) Interpret(ctx context.Context, query string, c Context) Plan {
	if in.Model == nil {
		return in.rules(query, c)
	}
	p, attempts, err := in.askInBudget(ctx, query, c)
	if err == nil {
		p.ModelAttempts = attempts
		return p
	}
	fb := in.rules(query, c)
	fb.Notes = joinNotes("the language model's plan was not used ("+err.Error()+"), so the rules answered", fb.Notes)
	fb.Fallback = fallbackReason(err)
	fb.ModelAttempts = attempts
	return fb
}

// ask gets a plan from the model and checks it. The answer is awaited in a goroutine so that
// a Model that ignores ctx cannot hold the query past its deadline.
func (in *Interpreter) ask(ctx context.Context, query string, c Context) (Plan, error) {
	if err := ctx.Err(); err != nil {
		return Plan{}, fmt.Errorf("model: %w", err)
	}
	type answer struct {
		data []byte
		err  error
	}
	done := make(chan answer, 1)
	prompt := in.prompt(query, c)
	go func() {
		data, err := in.Model.AskJSON(ctx, prompt, PlanSchema())
		done <- answer{data, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		return Plan{}, fmt.Errorf("model: %w", context.Cause(ctx))
	}
	if a.err != nil {
		if ctx.Err() != nil { // the model saw the deadline first: say which one
			return Plan{}, fmt.Errorf("model: %w", context.Cause(ctx))
		}
		return Plan{}, fmt.Errorf("model: %w", a.err)
	}
	p, err := parsePlan(a.data)
	if err != nil {
		return Plan{}, err
	}
	checked := in.check(p)
	if p.NeedsTools && len(checked.Tools) == 0 {
		return Plan{}, fmt.Errorf("%w: no valid tool call left (%s)", ErrInvalidPlan, checked.Notes)
	}
	return checked, nil
}

// rules is Rules checked against the session: a plan whose tools the session does not offer
// becomes an answer without tools that says so.
func (in *Interpreter) rules(query string, c Context) Plan {
	p := rulesWith(query, c, func(name string) bool { return in.tool(name) != nil })
	checked := in.check(p)
	checked.Suggestions = in.offeredSuggestions(p.Suggestions)
	if p.NeedsTools && len(checked.Tools) == 0 {
		names := make([]string, len(p.Tools))
		for i, t := range p.Tools {
			names[i] = t.Name
		}
		return Plan{
			Rationale: fmt.Sprintf("This needs %s, which this session does not offer (its role may hide it).",
				strings.Join(uniq(names), ", ")),
			Notes:       checked.Notes,
			Source:      SourceRules,
			Suggestions: in.offeredSuggestions(suggest()),
		}
	}
	return checked
}

// joinNotes joins the non-empty notes with "; ".
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// uniq drops repeated names, keeping the first of each.
func uniq(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent/gemini/geminitest"
)

// askPlan runs `jido ask --json --provider interpreter` against srv and returns the
// result and its plan.
func askPlan(t *testing.T, dir string, srv *geminitest.Server, question string, flags ...string) (map[string]any, map[string]any) {
	t.Helper()
	args := append([]string{"ask", "--json", "--provider", "interpreter"}, flags...)
	r := runJidoEnv(t, dir, srv.Env(), append(args, question)...)
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	res := decodeJSON(t, r.stdout)
	plan, ok := res["plan"].(map[string]any)
	require.True(t, ok, "the JSON has the plan: %s", r.stdout)
	return res, plan
}

// calledTools are the names of the calls in an ask result.
func calledTools(res map[string]any) []string {
	var names []string
	for _, c := range res["calls"].([]any) {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	return names
}

func TestAskPlanFromTheModel(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello\n"})
	srv := geminitest.NewServer(geminitest.Step{JSON: `{"needs_tools":true,"tools":[{"name":"read_file","args":{"path":"README.md"},"confidence":0.93}],"rationale":"The user wants the readme.","notes":"README.md assumed"}`})
	defer srv.Close()

	res, plan := askPlan(t, dir, srv, "what does the readme say?")
	assert.Equal(t, "model", plan["source"])
	assert.Equal(t, true, plan["needs_tools"])
	assert.Equal(t, []any{map[string]any{"name": "read_file", "args": map[string]any{"path": "README.md"}, "confidence": 0.93}}, plan["tools"])
	assert.Equal(t, "The user wants the readme.", plan["rationale"])
	assert.Equal(t, "README.md assumed", plan["notes"])
	assert.Equal(t, 1.0, plan["model_attempts"])
	assert.NotContains(t, plan, "fallback")
	assert.NotContains(t, res["provider"], "rule-based interpreter", "the model made the plan")
	assert.Contains(t, res["provider"], "gemini")
	assert.Equal(t, []string{"read_file"}, calledTools(res))
	assert.Contains(t, res["answer"], "hello")
	require.Len(t, srv.Requests(), 1)
	assert.False(t, srv.Requests()[0].Stream, "the plan is asked with generateContent")
}

func TestAskPlanRetriesA429(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello\n"})
	srv := geminitest.NewServer(
		geminitest.Step{Status: 429, Message: "Resource has been exhausted", RetryDelay: time.Millisecond},
		geminitest.Step{JSON: `{"needs_tools":true,"tools":[{"name":"read_file","args":{"path":"README.md"},"confidence":0.8}],"rationale":"Read it."}`},
	)
	defer srv.Close()

	res, plan := askPlan(t, dir, srv, "what does the readme say?")
	assert.Equal(t, "model", plan["source"])
	assert.Equal(t, 2.0, plan["model_attempts"], "the retry was used")
	assert.Equal(t, []string{"read_file"}, calledTools(res))
	assert.Len(t, srv.Requests(), 2)
}

func TestAskPlanFallsBackWhenTheModelFails(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.go": "package a\n", "README.md": "hello\n"})
	cases := []struct {
		name     string
		steps    []geminitest.Step
		flags    []string
		fallback string
		attempts float64
		note     string
	}{
		{
			// The model sleeps far past the budget: the rules answer once the budget is out.
			name:  "a model that sleeps",
			steps: []geminitest.Step{{Delay: time.Hour, JSON: `{"needs_tools":false,"tools":[],"rationale":"too late"}`}},
			flags: []string{"--plan-timeout", "300ms"}, fallback: "timeout", attempts: 1, note: "no plan within the 300ms budget",
		},
		{
			name:     "500 twice",
			steps:    []geminitest.Step{{Status: 500, Message: "boom"}, {Status: 500, Message: "boom again"}},
			fallback: "server_error", attempts: 2, note: "HTTP 500: boom again",
		},
		{
			name:     "bad key: not retried",
			steps:    []geminitest.Step{{Status: 400, Message: "API key not valid.", Reason: "API_KEY_INVALID"}},
			fallback: "error", attempts: 1, note: "check GEMINI_API_KEY",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := geminitest.NewServer(tc.steps...)
			defer srv.Close()
			start := time.Now()
			res, plan := askPlan(t, dir, srv, "find all go files", tc.flags...)
			elapsed := time.Since(start)
			t.Logf("jido ask answered in %v (process start and the glob included)", elapsed)
			// Not a latency claim (interpret's unit test makes that one): a bound loose enough
			// for any machine that still fails at once if jido waited for the model's hour.
			assert.Less(t, elapsed, 30*time.Second)
			assert.Equal(t, "rules", plan["source"])
			assert.Equal(t, tc.fallback, plan["fallback"])
			assert.Equal(t, tc.attempts, plan["model_attempts"])
			assert.Contains(t, plan["notes"], tc.note)
			tools := plan["tools"].([]any)
			require.Len(t, tools, 1)
			assert.Equal(t, "glob", tools[0].(map[string]any)["name"])
			assert.Contains(t, tools[0].(map[string]any), "confidence")
			assert.Equal(t, []string{"glob"}, calledTools(res))
			assert.Contains(t, res["answer"], "a.go")
			assert.Empty(t, res["error"])
			assert.Len(t, srv.Requests(), int(tc.attempts))
		})
	}
}

func TestAskPlanTimeoutFlag(t *testing.T) {
	srv := geminitest.NewServer()
	defer srv.Close()
	r := runJidoEnv(t, t.TempDir(), srv.Env(), "ask", "--provider", "interpreter", "--plan-timeout", "0s", "ls")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "--plan-timeout must be positive")
	assert.Empty(t, srv.Requests())

	r = runJidoEnv(t, t.TempDir(), srv.Env(), "ask", "--help")
	assert.True(t, strings.Contains(r.stderr+r.stdout, "-plan-timeout"), "the flag is documented")
}

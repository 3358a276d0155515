package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/policy"
)

// TestHelpOfEveryCommand: --help, -h and jido help CMD print the command's own usage line
// and flags on stdout and succeed, with nothing on stderr.
func TestHelpOfEveryCommand(t *testing.T) {
	for name, c := range commands {
		for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {"help", name}, {name, "--root", "x", "-help"}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				var out, errb bytes.Buffer
				code := run(args, nil, &out, &errb)
				assert.Equal(t, exitOK, code)
				assert.Empty(t, errb.String())
				assert.True(t, strings.HasPrefix(out.String(), usageLine(name)+"\n\n"+c.summary+"\n"), out.String())
				assert.NotContains(t, out.String(), "jido: a sandboxed tool runtime", "only this command's help")
			})
		}
	}
	var out bytes.Buffer
	run([]string{"rules", "--help"}, nil, &out, io.Discard)
	assert.Contains(t, out.String(), "  --revoke ID\n      remove the rule with this id")
	assert.Contains(t, out.String(), "  --root DIR\n      the project root (default: the project around the current directory")
	assert.NotContains(t, out.String(), "--allow-network", "rules has no session flags")
	out.Reset()
	run([]string{"call", "--help"}, nil, &out, io.Discard)
	assert.Contains(t, out.String(), "Usage: jido call [flags] TOOL [ARGS_JSON|-]\n")
	assert.Contains(t, out.String(), "  --timeout DURATION\n")
	assert.NotContains(t, out.String(), "--provider", "call has no model flags")
}

func TestHelpIsNotAnArgument(t *testing.T) {
	o, err := parseCall([]string{"read_file", "--", "--help"}, io.Discard)
	require.NoError(t, err, "after --, --help is an argument")
	assert.Equal(t, "--help", o.args)
	o2, err := parseEval([]string{"-e", "-h"}, io.Discard)
	require.NoError(t, err, "the value of -e")
	assert.Equal(t, snippetList{"-h"}, o2.snippets)
}

func TestUnknownFlagShowsTheUsageLine(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"call", "--nope", "read_file"}, nil, &out, &errb)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out.String())
	assert.Equal(t, "jido call: flag provided but not defined: -nope\nUsage: jido call [flags] TOOL [ARGS_JSON|-]\nRun 'jido call --help' for its flags.\n", errb.String())
	assert.Equal(t, exitUsage, run([]string{"version", "extra"}, nil, io.Discard, io.Discard))
	assert.Equal(t, exitUsage, run([]string{"help", "nope"}, nil, io.Discard, io.Discard))
}

func TestFlagsAfterArguments(t *testing.T) {
	o, err := parseCall([]string{"read_file", `{"path":"a"}`, "--yes", "--root", "/p", "--timeout=2s"}, io.Discard)
	require.NoError(t, err)
	assert.True(t, o.yes)
	assert.Equal(t, "/p", o.root.dir)
	assert.Equal(t, "read_file", o.tool)
	assert.Equal(t, `{"path":"a"}`, o.args)
	assert.Equal(t, 2.0, o.meta.Timeout)

	o, err = parseCall([]string{"--yes", "edit_file", "--", `-{"not":"a flag"}`}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, `-{"not":"a flag"}`, o.args, "-- ends the flags")

	o, err = parseCall([]string{"read_file", "-"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "-", o.args, "- alone is an argument (standard input)")

	e, err := parseEval([]string{"-e", "return 1", "--timeout", "1s", "-e", "-- a comment\nreturn 2"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, snippetList{"return 1", "-- a comment\nreturn 2"}, e.snippets, "a snippet that starts with - is -e's value")

	u, err := parseUndo([]string{"c-12", "--force"}, io.Discard)
	require.NoError(t, err)
	assert.True(t, u.force)
	assert.Equal(t, "c-12", u.id)
}

func TestAskJoinsWords(t *testing.T) {
	o, err := parseChat("ask", []string{"list", "go", "files", "--json", "in", "cmd"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "list go files in cmd", o.question)
	assert.True(t, o.json)

	o, err = parseChat("ask", []string{"what is in README.md?"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "what is in README.md?", o.question)

	o, err = parseChat("ask", []string{"--", "-v", "means", "what?"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "-v means what?", o.question)

	for _, bad := range [][]string{{}, {" "}, {"--json"}} {
		_, err := parseChat("ask", bad, io.Discard)
		assert.Error(t, err, "%q", bad)
	}
}

func TestRulesTableAndJSON(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".jido"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".jido", "config.toml"),
		[]byte("[[deny]]\ntool = \"*_file\"\npaths = [\"secrets/**\"]\n\n[[ask]]\ntool = \"run_shell\"\ncommands = [\"git push\"]\nclass = \"network\"\n"), 0o644))

	var out, errb bytes.Buffer
	require.Equal(t, exitOK, run([]string{"rules", "--root", root}, nil, &out, &errb), errb.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 5, out.String())
	assert.Equal(t, "mode: default", lines[0])
	assert.Regexp(t, `^ID +ACTION +TOOL +MATCHES +SOURCE$`, lines[1])
	assert.Regexp(t, `^project-1 +deny +\*_file +paths secrets/\*\* +\S+config.toml:1$`, lines[2])
	assert.Regexp(t, `^project-2 +ask +run_shell +command "git push"; class network +\S+config.toml:5$`, lines[3])
	assert.Contains(t, lines[4], "--revoke ID")

	out.Reset()
	require.Equal(t, exitOK, run([]string{"rules", "--json", "--root", root}, nil, &out, &errb))
	assert.Contains(t, out.String(), `"mode": "default"`)
	assert.Contains(t, out.String(), `"commands": [`)
	assert.Contains(t, out.String(), `"action": "deny"`)

	assert.Equal(t, policy.Rule{}.Tool, "")
	assert.Equal(t, "any call", ruleMatches(policy.Rule{Tool: "*"}))
	assert.Equal(t, "a b", cell("a\tb"))
}

func TestModelChoice(t *testing.T) {
	cfg := policy.ModelConfig{Provider: "openai", Name: "qwen", BaseURL: "http://h/v1", APIKeyEnv: "MY_KEY"}
	for _, tc := range []struct {
		name  string
		flags providerFlags
		want  modelChoice
	}{
		{"the config alone", providerFlags{}, modelChoice{"openai", "qwen", "http://h/v1", "MY_KEY"}},
		{"flags over it", providerFlags{model: "llama", baseURL: "http://o/v1"}, modelChoice{"openai", "llama", "http://o/v1", "MY_KEY"}},
		{"the same provider", providerFlags{provider: "openai"}, modelChoice{"openai", "qwen", "http://h/v1", "MY_KEY"}},
		{"another provider drops the config", providerFlags{provider: "gemini"}, modelChoice{provider: "gemini"}},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, tc.flags.choose(cfg)) })
	}
	assert.Equal(t, modelChoice{provider: "auto"}, (&providerFlags{}).choose(policy.ModelConfig{}))

	t.Setenv("MY_KEY", "")
	_, err := modelChoice{keyEnv: "MY_KEY"}.key(func() string { return "fallback" })
	assert.ErrorContains(t, err, "api_key_env names $MY_KEY, which is not set")
	t.Setenv("MY_KEY", "k")
	key, err := modelChoice{keyEnv: "MY_KEY"}.key(func() string { return "fallback" })
	require.NoError(t, err)
	assert.Equal(t, "k", key)
	key, _ = modelChoice{}.key(func() string { return "fallback" })
	assert.Equal(t, "fallback", key)
}

func TestCallPaths(t *testing.T) {
	got := callPaths(map[string]any{"path": "a/b.go", "file_path": "c/d.go", "filePath": "e.go", "paths": []any{"f/g.go", 3}, "content": "x", "pattern": "*.go"})
	assert.ElementsMatch(t, []string{"a/b.go", "c/d.go", "e.go", "f/g.go"}, got)
}

func TestMarkOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "notices")
	now := time.Now()
	assert.True(t, markOnce(dir, "offline-sid-1", now), "the first time")
	assert.False(t, markOnce(dir, "offline-sid-1", now.Add(time.Hour)), "then not in the same session")
	assert.True(t, markOnce(dir, "offline-sid-2", now), "another session")
	assert.True(t, markOnce(dir, "offline-sid-1", now.Add(noticeTTL+time.Hour)), "a stale marker (session ids are reused)")
	assert.False(t, markOnce(dir, "offline-sid-1", now.Add(noticeTTL+2*time.Hour)))

	t.Setenv("TERM_SESSION_ID", "w0t0p0:ABC/../x")
	assert.Equal(t, "term_session_id-w0t0p0_ABC_.._x", terminalSession(), "no path separators")
}

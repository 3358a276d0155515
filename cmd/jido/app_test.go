package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCall(t *testing.T) {
	o, err := parseCall([]string{"--root", "/p", "--yes", "read_file", `{"path":"a"}`}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "/p", o.root.dir)
	assert.True(t, o.yes)
	assert.Equal(t, "read_file", o.tool)
	assert.Equal(t, `{"path":"a"}`, o.args)

	o, err = parseCall([]string{"list_dir"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "{}", o.args, "arguments default to an empty object")
	assert.Equal(t, locatedRoot(t), o.root.dir, "the project around the working directory")

	for _, bad := range [][]string{{}, {"a", "b", "c"}, {"--nope", "x"}} {
		_, err := parseCall(bad, io.Discard)
		assert.Error(t, err, "%q", bad)
	}
}

func TestParseEval(t *testing.T) {
	o, err := parseEval([]string{"--timeout", "2s", "-e", "return 1", "-e", "return 2"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, snippetList{"return 1", "return 2"}, o.snippets)
	assert.Equal(t, "2s", o.timeout.String())

	for _, bad := range [][]string{{}, {"-e", "x", "stray"}, {"--timeout", "soon", "-e", "x"}} {
		_, err := parseEval(bad, io.Discard)
		assert.Error(t, err, "%q", bad)
	}
}

// fakeEvaluator returns fixed values, to test how eval shapes its lines.
type fakeEvaluator struct {
	vals []any
	err  *definitions.ToolError
}

func (f fakeEvaluator) Eval(context.Context, string) ([]any, *definitions.ToolError) {
	return f.vals, f.err
}

func TestEvalSnippetShapesValues(t *testing.T) {
	ctx := t.Context()
	assert.Equal(t, evalLine{OK: true}, evalSnippet(ctx, fakeEvaluator{}, "", 0))
	assert.Equal(t, evalLine{OK: true, Value: 1}, evalSnippet(ctx, fakeEvaluator{vals: []any{1}}, "", 0))
	assert.Equal(t, evalLine{OK: true, Value: []any{1, "a"}}, evalSnippet(ctx, fakeEvaluator{vals: []any{1, "a"}}, "", 0))
	boom := definitions.NewError(definitions.LuaError, "boom")
	assert.Equal(t, evalLine{Error: boom}, evalSnippet(ctx, fakeEvaluator{err: boom}, "", 0))
}

func TestRunInProcess(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("x\n"), 0o644))
	var out, errb bytes.Buffer
	code := run([]string{"call", "--root", root, "read_file", "-"}, strings.NewReader(`{"path":"a.txt"}`), &out, &errb)
	assert.Equal(t, exitOK, code, errb.String())
	assert.Contains(t, out.String(), `"ok":true`)

	out.Reset()
	code = run([]string{"call", "--root", root, "--events", filepath.Join(root, "no", "such", "dir", "e"), "list_dir"}, nil, &out, &errb)
	assert.Equal(t, exitUsage, code, "an event file that cannot be opened is a usage error")
	assert.Empty(t, out.String())

	out.Reset()
	assert.Equal(t, exitOK, run([]string{"help"}, nil, &out, &errb))
	assert.Contains(t, out.String(), "jido call")
}

package integration

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/shellclass"
	"github.com/stretchr/testify/require"
)

// Pieces of generated command lines: programs the classifier may call read-only, and
// arguments that make some of them write or run a program.
var (
	diffPrograms = []string{"cat", "head", "tail", "wc", "sort", "uniq", "grep", "sed", "awk", "find", "ls", "tree",
		"cut", "tr", "printf", "echo", "date", "env", "xargs", "git", "diff", "tee", "iconv", "mapfile", "base64", "md5sum", "stat", "od", "comm", "paste"}
	diffArgs = []string{"a.txt", "b.txt", "sub", ".", "-n", "-i", "-o out.txt", "--output=out.txt", "-r", "-v", "x",
		"'1e touch pwned'", "'s/a/b/w pwned'", "'w pwned'", "'s/a/b/e'", "-exec touch pwned ;", "-delete", "-fprint pwned",
		"-C 'touch pwned #'", "'{print > \"pwned\"}'", "'BEGIN{system(\"touch pwned\")}'", "-s 2020-01-01", "-v PATH x",
		"touch pwned", "-f out.txt", "--in-place", "-w", "status", "log", "-c core.pager=cat log", "-u", "-f utf-8 -t ascii"}
	diffGlue = []string{"", "", "", " > out.txt", " | cat", " >> pwned", " 2>/dev/null", " < a.txt"}
)

// diffLine generates one command line.
func diffLine(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(diffPrograms[r.IntN(len(diffPrograms))])
	for range r.IntN(4) {
		b.WriteString(" " + diffArgs[r.IntN(len(diffArgs))])
	}
	b.WriteString(diffGlue[r.IntN(len(diffGlue))])
	return b.String()
}

// TestReadOnlyVerdictsChangeNothing is a differential test of the shell classifier against
// the sandbox: for generated command lines, a read-only verdict must never come with a
// change of the tree when the line actually runs (auto-edit runs such lines unasked).
func TestReadOnlyVerdictsChangeNothing(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	r := rand.New(rand.NewPCG(16, 3))
	seen := map[string]bool{}
	var readOnly []string
	for len(seen) < n {
		line := diffLine(r)
		if seen[line] {
			continue
		}
		seen[line] = true
		if shellclass.Classify(line).Class == shellclass.ReadOnly {
			readOnly = append(readOnly, line)
		}
	}
	t.Logf("%d generated lines, %d classed read-only, run in the sandbox", n, len(readOnly))
	dir := t.TempDir()
	root, err := security.Open(dir, security.Options{NoSync: true})
	require.NoError(t, err)
	defer root.Close()
	runner, err := shell.New(shell.Options{Root: root})
	require.NoError(t, err)
	defer runner.Close()
	for _, line := range readOnly {
		resetDiffTree(t, dir)
		before := snapshot(t, dir, []string{filepath.Join(dir, ".jido")}, true)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		_, err := runner.Run(ctx, shell.Request{Command: line, Timeout: 5 * time.Second})
		cancel()
		require.NoError(t, err, line)
		after := snapshot(t, dir, []string{filepath.Join(dir, ".jido")}, true)
		if len(before) != len(after) {
			t.Errorf("classed read-only, but it changed the tree: %s", line)
			continue
		}
		for k, v := range before {
			if after[k] != v {
				t.Errorf("classed read-only, but it changed %s: %s", k, line)
				break
			}
		}
	}
}

// resetDiffTree lays the fixture anew: two text files and a directory.
func resetDiffTree(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() != ".jido" {
			require.NoError(t, os.RemoveAll(filepath.Join(dir, e.Name())))
		}
	}
	writeTree(t, dir, map[string]string{"a.txt": "alpha\nbeta\n", "b.txt": "beta\ngamma\n", "sub/c.txt": "x\n"})
	require.NoError(t, os.MkdirAll(filepath.Join(dir, shell.OutputDir), 0o755)) // jido's own, made before a command
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range []string{"a.txt", "b.txt", "sub/c.txt", "sub", "."} {
		require.NoError(t, os.Chtimes(filepath.Join(dir, p), old, old))
	}
}

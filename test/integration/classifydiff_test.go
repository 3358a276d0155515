package integration

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/shellclass"
	"github.com/stretchr/testify/require"
)

// Pieces of generated command lines: programs the classifier may call read-only, arguments
// for any of them, and arguments of one program that make it write, or run a program
// without writing (which only the exec log sees).
var (
	diffPrograms = []string{"cat", "head", "tail", "wc", "sort", "uniq", "grep", "sed", "awk", "find", "ls", "tree",
		"cut", "tr", "printf", "echo", "date", "env", "xargs", "git", "diff", "tee", "iconv", "mapfile", "base64", "md5sum", "stat", "od", "comm", "paste", "tar", "sdiff"}
	diffArgs = []string{"a.txt", "b.txt", "sub", ".", "-n", "-i", "-o out.txt", "--output=out.txt", "-r", "-v", "x",
		"-s 2020-01-01", "-v PATH x", "touch pwned", "true", "-f out.txt", "--in-place", "-w", "status", "log", "-c core.pager=cat log",
		"-u", "-f utf-8 -t ascii"}
	diffOwnArgs = map[string][]string{
		"sed": {"'1e touch pwned'", "'s/a/b/w pwned'", "'w pwned'", "'s/a/b/e'", "'1e true'", "'s/^/true/e'", "-n '1e true'"},
		"find": {"-exec touch pwned \\;", "-delete", "-fprint pwned", "-exec true \\;", "-execdir true {} +", "-ok true \\;",
			"-newer a.txt -exec true {} \\;"},
		"awk": {"'{print > \"pwned\"}'", "'BEGIN{system(\"touch pwned\")}'", "'BEGIN{system(\"true\")}'", "'{print | \"true\"}'",
			"'BEGIN{\"true\" | getline}'", "-f /dev/null"},
		"mapfile": {"-C 'touch pwned #'", "-C '/bin/true #'", "-c 1 -C '/bin/true #'"},
		"sort":    {"-S 1 --compress-program=true", "--compress-program=true"},
		"xargs":   {"true", "-I{} true {}", "-a a.txt true"},
		"env":     {"true", "-i true", "-S true"},
		"git":     {"-c core.fsmonitor=true status", "-c alias.x=!true x", "--exec-path=. status", "-c core.sshCommand=true status"},
		"tar":     {"-cf /dev/null --use-compress-program=true a.txt"},
		"sdiff":   {"--diff-program=true a.txt b.txt", "-o out.txt a.txt b.txt"},
	}
	diffGlue = []string{"", "", "", " > out.txt", " | cat", " >> pwned", " 2>/dev/null", " < a.txt"}
)

// diffLine generates one command line; half of the arguments of a program with arguments of
// its own are drawn from them.
func diffLine(r *rand.Rand) string {
	var b strings.Builder
	prog := diffPrograms[r.IntN(len(diffPrograms))]
	b.WriteString(prog)
	own := diffOwnArgs[prog]
	for range r.IntN(4) {
		if len(own) > 0 && r.IntN(2) == 0 {
			b.WriteString(" " + own[r.IntN(len(own))])
		} else {
			b.WriteString(" " + diffArgs[r.IntN(len(diffArgs))])
		}
	}
	b.WriteString(diffGlue[r.IntN(len(diffGlue))])
	return b.String()
}

// diffKnownLines are well-formed lines that write, or run a program, through an option of a
// tool that reads, which random arguments seldom form; they run before the generated ones.
var diffKnownLines = []string{
	"sed '1e true' a.txt", "sed -n 's/^/true/ep' a.txt", "sed -n '1w out.txt' a.txt",
	"awk 'BEGIN{system(\"true\")}'", "awk '{print | \"true\"}' a.txt", "awk 'BEGIN{\"true\" | getline}'", "awk -p 'BEGIN{}'",
	"find . -exec true \\;", "find . -execdir true {} +", "find . -fls out.txt",
	"sort -S 1 --batch-size=2 --compress-program=true a.txt b.txt sub/c.txt", "sdiff --diff-program=true a.txt b.txt",
	"xargs -a a.txt true", "git diff --no-index --ext-diff a.txt b.txt", "git diff --no-index --output=out.txt a.txt b.txt",
	"rg --pre true alpha a.txt", "mapfile -C '/bin/true #' -c 1 < a.txt", "env -S 'sh -c true'",
}

// diffLines generates n distinct command lines, the same ones at every run.
func diffLines(n int) []string {
	r := rand.New(rand.NewPCG(16, 3))
	seen := map[string]bool{}
	var lines []string
	for len(lines) < n {
		if line := diffLine(r); !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	return lines
}

// TestReadOnlyVerdictsChangeNothing is a differential test of the shell classifier against
// the sandbox: for known and generated command lines, a read-only verdict must never come with a
// change of the tree, nor with a program the line does not name, when the line actually
// runs (auto-edit runs such lines unasked). The lines run in a child process traced by
// strace (see execObserver).
func TestReadOnlyVerdictsChangeNothing(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	var readOnly []string
	for _, line := range append(slices.Clone(diffKnownLines), diffLines(n)...) {
		if shellclass.Classify(line).Class == shellclass.ReadOnly {
			readOnly = append(readOnly, line)
		}
	}
	dir := t.TempDir()
	o := startExecObserver(t, dir)

	// The observer sees inside the sandbox: both programs of a pipeline, and the shell that
	// sed's e command starts.
	execs := checkReadOnlyLine(t, o, dir, "cat a.txt | wc -l")
	require.Subset(t, programNames(execs), []string{"cat", "wc"}, "the exec log misses the programs of the line")
	execs, _, err := o.run("sed '1e true' a.txt")
	require.NoError(t, err)
	require.NotEmpty(t, unexpectedPrograms("sed '1e true' a.txt", execs), "the exec log misses what sed ran: %v", programNames(execs))

	logged, programs := 0, map[string]bool{}
	for _, line := range readOnly {
		for _, e := range checkReadOnlyLine(t, o, dir, line) {
			logged++
			programs[e.program()] = true
		}
	}
	t.Logf("%d known and %d generated lines, %d classed read-only, run in the sandbox: %d executions logged (%d distinct programs)",
		len(diffKnownLines), n, len(readOnly), logged, len(programs))
}

// FuzzReadOnlyVerdictsChangeNothing is TestReadOnlyVerdictsChangeNothing for any line: one
// classed read-only runs in the sandbox, which must leave the tree as it was and run no
// program the line does not name. The seeds are the known lines and generated ones.
func FuzzReadOnlyVerdictsChangeNothing(f *testing.F) {
	for _, line := range append(slices.Clone(diffKnownLines), diffLines(30)...) {
		f.Add(line)
	}
	dir := f.TempDir()
	o := startExecObserver(f, dir)
	f.Fuzz(func(t *testing.T, line string) {
		if shellclass.Classify(line).Class == shellclass.ReadOnly {
			checkReadOnlyLine(t, o, dir, line)
		}
	})
}

// checkReadOnlyLine runs a line classed read-only through o, on a fresh fixture in its root
// dir, and fails t when the line changed the tree or ran a program it does not account
// for; it returns the programs executed.
func checkReadOnlyLine(t *testing.T, o *execObserver, dir, line string) []execCall {
	t.Helper()
	resetDiffTree(t, dir)
	skip := []string{filepath.Join(dir, ".jido")}
	before := snapshot(t, dir, skip, true)
	execs, rep, err := o.run(line)
	require.NoError(t, err, line)
	if rep.Error != "" && !rep.Refused { // a refused line (an empty one, say) ran nothing
		t.Errorf("running %s: %s", line, rep.Error)
	}
	after := snapshot(t, dir, skip, true)
	if len(before) != len(after) {
		t.Errorf("classed read-only, but it changed the tree: %s", line)
	} else {
		for k, v := range before {
			if after[k] != v {
				t.Errorf("classed read-only, but it changed %s: %s", k, line)
				break
			}
		}
	}
	for _, p := range unexpectedPrograms(line, execs) {
		t.Errorf("classed read-only, but it ran %s: %s", p, line)
	}
	return execs
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

package planshell

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jido-run/jido/plan"
	"github.com/jido-run/jido/security"
	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTree returns a MemMapFs holding a small project.
func newTree(t *testing.T) afero.Fs {
	t.Helper()
	fsys := afero.NewMemMapFs()
	for _, d := range []string{"/src", "/sub"} {
		require.NoError(t, fsys.MkdirAll(d, 0o755))
	}
	for name, data := range map[string]string{
		"/a.txt":       "alpha\nbeta TODO\ngamma\n",
		"/b.txt":       "beta\nalpha\nbeta\n",
		"/f.txt":       "old old\nkeep\nold\n",
		"/notes.md":    "# Notes\nTODO: write\n",
		"/nums.txt":    "10\n9\n100\n-1\n9\n",
		"/src/main.go": "package main\n\n// TODO: fix\nfunc main() {}\n",
		"/src/util.go": "package main\n\nfunc util() {}\n",
		"/src/.hidden": "secret\n",
		"/sub/file":    "in sub\n",
	} {
		require.NoError(t, afero.WriteFile(fsys, name, []byte(data), 0o644))
	}
	return fsys
}

func run(t *testing.T, fsys afero.Fs, command string, opts Options) Result {
	t.Helper()
	res, err := Run(t.Context(), fsys, command, opts)
	require.NoError(t, err, command)
	return res
}

type shellCase struct {
	name   string
	cmd    string
	stdout string
	stderr string // a substring of stderr; "" means stderr is empty
	code   int
}

func runCases(t *testing.T, cases []shellCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, newTree(t), tc.cmd, Options{})
			assert.Equal(t, tc.stdout, res.Stdout, "stdout of %q", tc.cmd)
			if tc.stderr == "" {
				assert.Empty(t, res.Stderr, "stderr of %q", tc.cmd)
			} else {
				assert.Contains(t, res.Stderr, tc.stderr, "stderr of %q", tc.cmd)
			}
			assert.Equal(t, tc.code, res.ExitCode, "exit code of %q (stderr %q)", tc.cmd, res.Stderr)
			assert.False(t, res.Truncated)
		})
	}
}

func TestFileCommands(t *testing.T) {
	runCases(t, []shellCase{
		{"cat file", "cat a.txt", "alpha\nbeta TODO\ngamma\n", "", 0},
		{"cat stdin", "echo hi | cat", "hi\n", "", 0},
		{"cat -n", "cat -n sub/file", "     1\tin sub\n", "", 0},
		{"cat redirect in", "cat < sub/file", "in sub\n", "", 0},
		{"cat missing", "cat nope", "", "cat: nope: No such file or directory", 1},
		{"cat dir", "cat sub", "", "cat: sub: Is a directory", 1},
		{"cat unknown option", "cat -x a.txt", "", "cat: unknown option -x", 2},
		{"ls", "ls", "a.txt\nb.txt\nf.txt\nnotes.md\nnums.txt\nsrc\nsub\n", "", 0},
		{"ls dir", "ls src", "main.go\nutil.go\n", "", 0},
		{"ls -a", "ls -a src", ".hidden\nmain.go\nutil.go\n", "", 0},
		{"ls file and dir", "ls -1 a.txt sub", "a.txt\n\nsub:\nfile\n", "", 0},
		{"ls -R", "mkdir sub/deep && ls -R sub", "sub:\ndeep\nfile\n\nsub/deep:\n", "", 0},
		{"ls missing", "ls nope", "", "ls: cannot access 'nope': No such file or directory", 2},
		{"ls unknown option", "ls -z", "", "ls: unknown option -z", 2},
		{"mkdir -p and redirect", "mkdir -p x/y && echo hi > x/y/z && ls x/y && cat x/y/z", "z\nhi\n", "", 0},
		{"mkdir exists", "mkdir sub", "", "mkdir: cannot create directory 'sub': File exists", 1},
		{"mkdir no parent", "mkdir q/r", "", "mkdir: cannot create directory 'q/r': No such file or directory", 1},
		{"mkdir -p over file", "mkdir -p a.txt/x", "", "mkdir: cannot create directory 'a.txt/x': Not a directory", 1},
		{"cp file", "cp a.txt c.txt && cat c.txt", "alpha\nbeta TODO\ngamma\n", "", 0},
		{"cp into dir", "cp a.txt b.txt sub && ls sub", "a.txt\nb.txt\nfile\n", "", 0},
		{"cp -r", "cp -r src dst && find dst", "dst\ndst/.hidden\ndst/main.go\ndst/util.go\n", "", 0},
		{"cp -r into existing dir", "cp -r src sub && ls sub/src", "main.go\nutil.go\n", "", 0},
		{"cp dir without -r", "cp src dst", "", "cp: -r not specified; omitting directory 'src'", 1},
		{"cp into itself", "cp -r src src/inner", "", "cp: cannot copy a directory, 'src', into itself, 'src/inner'", 1},
		{"cp many to file", "cp a.txt b.txt f.txt", "", "cp: target 'f.txt' is not a directory", 1},
		{"cp missing", "cp nope x", "", "cp: cannot stat 'nope': No such file or directory", 1},
		{"mv file", "mv a.txt moved.txt && ls && cat moved.txt",
			"b.txt\nf.txt\nmoved.txt\nnotes.md\nnums.txt\nsrc\nsub\nalpha\nbeta TODO\ngamma\n", "", 0},
		{"mv dir into dir", "mv sub src && ls src && cat src/sub/file", "main.go\nsub\nutil.go\nin sub\n", "", 0},
		{"mv into itself", "mv src src/x", "", "mv: cannot move 'src' to a subdirectory of itself, 'src/x'", 1},
		{"mv missing", "mv nope x", "", "mv: cannot stat 'nope': No such file or directory", 1},
		{"rm -rf", "rm -rf src sub && ls", "a.txt\nb.txt\nf.txt\nnotes.md\nnums.txt\n", "", 0},
		{"rm file", "rm a.txt b.txt && ls", "f.txt\nnotes.md\nnums.txt\nsrc\nsub\n", "", 0},
		{"rm dir without -r", "rm sub", "", "rm: cannot remove 'sub': Is a directory", 1},
		{"rm missing", "rm nope", "", "rm: cannot remove 'nope': No such file or directory", 1},
		{"rm -f missing", "rm -f nope", "", "", 0},
		{"rm dot", "rm -rf .", "", "rm: refusing to remove '.' or '..' directory: skipping '.'", 1},
		{"rm root", "cd sub && rm -rf /", "", "rm: it is dangerous to operate recursively on '/'", 1},
		{"touch new", "touch new.txt && wc -c new.txt", "0 new.txt\n", "", 0},
		{"touch existing keeps content", "touch a.txt && head -n 1 a.txt", "alpha\n", "", 0},
		{"touch no parent", "touch nodir/x", "", "touch: cannot touch 'nodir/x': No such file or directory", 1},
	})
}

func TestLsLong(t *testing.T) {
	res := run(t, newTree(t), "ls -l sub", Options{})
	assert.Regexp(t, `^-rw-r--r-- +7 \w{3} [ \d]\d \d\d:\d\d file\n$`, res.Stdout)
}

func TestFind(t *testing.T) {
	runCases(t, []shellCase{
		{"name and type", "find . -name '*.go' -type f", "./src/main.go\n./src/util.go\n", "", 0},
		{"whole tree", "find src", "src\nsrc/.hidden\nsrc/main.go\nsrc/util.go\n", "", 0},
		{"maxdepth", "find . -maxdepth 1 -type d", ".\n./src\n./sub\n", "", 0},
		{"mindepth and path", "find . -mindepth 2 -path '*ub*'", "./sub/file\n", "", 0},
		{"iname", "find . -iname 'A.TXT'", "./a.txt\n", "", 0},
		{"not", "find . -maxdepth 1 -type f ! -name '*.txt'", "./notes.md\n", "", 0},
		{"several starts", "find sub src -name 'f*'", "sub/file\n", "", 0},
		{"absolute start", "cd sub && find / -name file", "/sub/file\n", "", 0},
		{"missing", "find nope", "", "find: 'nope': No such file or directory", 1},
		{"exec refused", `find . -exec rm {} \;`, "", "find: unknown predicate '-exec'", 2},
		{"missing argument", "find . -name", "", "find: missing argument to '-name'", 2},
	})
}

func TestTextCommands(t *testing.T) {
	runCases(t, []shellCase{
		{"grep -rn sort head", "grep -rn TODO . | sort | head -n 2", "./a.txt:2:beta TODO\n./notes.md:2:TODO: write\n", "", 0},
		{"grep -r no operand", "grep -r TODO", "a.txt:beta TODO\nnotes.md:TODO: write\nsrc/main.go:// TODO: fix\n", "", 0},
		{"grep -i", "grep -i todo a.txt", "beta TODO\n", "", 0},
		{"grep -v", "grep -v beta a.txt", "alpha\ngamma\n", "", 0},
		{"grep -l", "grep -l TODO a.txt b.txt notes.md", "a.txt\nnotes.md\n", "", 0},
		{"grep -c", "grep -c beta a.txt b.txt", "a.txt:1\nb.txt:2\n", "", 0},
		{"grep -E", "grep -E 'al(pha|x)' a.txt", "alpha\n", "", 0},
		{"grep basic groups", `grep 'al\(pha\|x\)' a.txt`, "alpha\n", "", 0},
		{"grep basic literal plus", "echo 'a+b' | grep 'a+b'", "a+b\n", "", 0},
		{"grep -F -o", "echo 'a.b axb' | grep -F -o 'a.b'", "a.b\n", "", 0},
		{"grep -w", `printf 'foo\nfoobar\n' | grep -w foo`, "foo\n", "", 0},
		{"grep -H", "grep -H alpha a.txt", "a.txt:alpha\n", "", 0},
		{"grep -h", "grep -h beta a.txt b.txt", "beta TODO\nbeta\nbeta\n", "", 0},
		{"grep -e twice", "grep -e alpha -e gamma a.txt", "alpha\ngamma\n", "", 0},
		{"grep --include", "grep -rl --include='*.go' TODO .", "./src/main.go\n", "", 0},
		{"grep -q", "grep -q beta a.txt && echo yes", "yes\n", "", 0},
		{"grep no match", "grep zzz a.txt", "", "", 1},
		{"grep missing file", "grep alpha nope a.txt", "a.txt:alpha\n", "grep: nope: No such file or directory", 2},
		{"grep dir without -r", "grep x sub", "", "grep: sub: Is a directory", 2},
		{"grep bad regexp", "grep -E '(' a.txt", "", "grep: invalid pattern", 2},
		{"grep unknown option", "grep -Z x a.txt", "", "grep: unknown option -Z", 2},
		{"grep binary file", `printf 'a\0b\n' > bin; grep a bin`, "Binary file bin matches\n", "", 0},
		{"head -n", "head -n 2 a.txt", "alpha\nbeta TODO\n", "", 0},
		{"head -N", "head -2 a.txt", "alpha\nbeta TODO\n", "", 0},
		{"head -c", "head -c 3 a.txt", "alp", "", 0},
		{"head several", "head -n 1 a.txt b.txt", "==> a.txt <==\nalpha\n\n==> b.txt <==\nbeta\n", "", 0},
		{"head bad count", "head -n x a.txt", "", "head: invalid number for -n: 'x'", 2},
		{"tail -n", "tail -n 1 a.txt", "gamma\n", "", 0},
		{"tail -n +N", "tail -n +2 a.txt", "beta TODO\ngamma\n", "", 0},
		{"tail -c", "tail -c 3 a.txt", "ma\n", "", 0},
		{"tail stdin", "cat a.txt | tail -2", "beta TODO\ngamma\n", "", 0},
		{"wc -l pipe", "cat a.txt | wc -l", "3\n", "", 0},
		{"wc -l file", "wc -l a.txt", "3 a.txt\n", "", 0},
		{"wc total", "wc -l a.txt b.txt", "3 a.txt\n3 b.txt\n6 total\n", "", 0},
		{"wc -w", "echo one two | wc -w", "2\n", "", 0},
		{"wc -c", "printf abc | wc -c", "3\n", "", 0},
		{"wc all", "wc sub/file", "1 2 7 sub/file\n", "", 0},
		{"sort", "sort b.txt", "alpha\nbeta\nbeta\n", "", 0},
		{"sort -r", "sort -r b.txt", "beta\nbeta\nalpha\n", "", 0},
		{"sort -u", "sort -u b.txt", "alpha\nbeta\n", "", 0},
		{"sort -n", "sort -n nums.txt", "-1\n9\n9\n10\n100\n", "", 0},
		{"sort -rn head", "sort -rn nums.txt | head -n 1", "100\n", "", 0},
		{"uniq", "sort nums.txt | uniq", "-1\n10\n100\n9\n", "", 0},
		{"uniq -c", "sort b.txt | uniq -c", "      1 alpha\n      2 beta\n", "", 0},
		{"uniq -d", "sort b.txt | uniq -d", "beta\n", "", 0},
	})
}

func TestSed(t *testing.T) {
	runCases(t, []shellCase{
		{"in place", "sed -i 's/old/new/g' f.txt && cat f.txt", "new new\nkeep\nnew\n", "", 0},
		{"first only", "sed 's/old/new/' f.txt", "new old\nkeep\nnew\n", "", 0},
		{"nth", "sed 's|a|A|2' a.txt", "alphA\nbeta TODO\ngammA\n", "", 0},
		{"-n p", "sed -n '2p' a.txt", "beta TODO\n", "", 0},
		{"line d", "sed '2d' a.txt", "alpha\ngamma\n", "", 0},
		{"regexp d", "sed '/TODO/d' a.txt", "alpha\ngamma\n", "", 0},
		{"last line", "sed -n '$p' a.txt", "gamma\n", "", 0},
		{"line range", "sed -n '1,2p' a.txt", "alpha\nbeta TODO\n", "", 0},
		{"regexp range", "sed '/alpha/,/beta/d' a.txt", "gamma\n", "", 0},
		{"negated", "sed '2!d' a.txt", "beta TODO\n", "", 0},
		{"quit", "sed 2q a.txt", "alpha\nbeta TODO\n", "", 0},
		{"extended groups", `sed -E 's/(a)(l)/\2\1/' a.txt`, "lapha\nbeta TODO\ngamma\n", "", 0},
		{"basic groups and &", `sed 's/\(b\)eta/[\1&]/' a.txt`, "alpha\n[bbeta] TODO\ngamma\n", "", 0},
		{"several -e", "sed -e 's/alpha/A/' -e 's/gamma/G/' a.txt", "A\nbeta TODO\nG\n", "", 0},
		{"semicolons", "sed 's/alpha/A/; s/gamma/G/; /TODO/d' a.txt", "A\nG\n", "", 0},
		{"case fold flag and print", "sed -n 's/ALPHA/x/ip' a.txt", "x\n", "", 0},
		{"newline in replacement", `echo abc | sed 's/b/\n/'`, "a\nc\n", "", 0},
		{"no final newline", "printf x | sed p", "x\nx", "", 0},
		{"stdin and -n", "cat b.txt | sed -n '/alpha/p'", "alpha\n", "", 0},
		{"unsupported command", "sed 'a foo' a.txt", "", "sed: -e expression, char 1: unsupported command 'a'", 1},
		{"unsupported flag", "sed 's/a/b/w out' a.txt", "", "unsupported flag 'w'", 1},
		{"unterminated", "sed 's/a/b' a.txt", "", "unterminated 's' command", 1},
		{"bad reference", `sed 's/a/\1/' a.txt`, "", `invalid reference \1`, 1},
		{"-i without files", "echo x | sed -i 's/x/y/'", "", "sed: no input files", 1},
		{"-i missing file", "sed -i 's/x/y/' nope", "", "sed: couldn't edit nope: No such file or directory", 1},
		{"unknown option", "sed -z 's/x/y/' a.txt", "", "sed: unknown option -z", 2},
	})
}

func TestShell(t *testing.T) {
	runCases(t, []shellCase{
		{"cd and relative paths", "cd sub && cat file && pwd", "in sub\n/sub\n", "", 0},
		{"parent path", "cd sub; head -n 1 ../a.txt", "alpha\n", "", 0},
		{"cd missing", "cd nope", "", "cd: no such file or directory", 1},
		{"cd file", "cd a.txt", "", "cd: no such file or directory", 1},
		{"minimal environment", "echo $HOME $PATH $PWD; echo ${TMPDIR-unset}", "/ /bin /\nunset\n", "", 0},
		{"append", "echo hi > out; echo there >> out; cat out", "hi\nthere\n", "", 0},
		{"dev null", "cat nope 2>/dev/null; echo $?; echo x > /dev/null", "1\n", "", 0},
		{"stderr", "echo e1 >&2; echo e2 > /dev/stderr", "", "e1\ne2\n", 0},
		{"redirect into missing dir", "echo x > nodir/f", "", "nodir/f: No such file or directory", 1},
		{"redirect onto dir", "echo x > sub", "", "sub: Is a directory", 1},
		{"glob", "echo src/*.go *.md", "src/main.go src/util.go notes.md\n", "", 0},
		{"test", "[ -f a.txt ] && [ -d sub ] && [ ! -e nope ] && test -r a.txt && echo ok", "ok\n", "", 0},
		{"here document", "cat <<EOF\nhi $HOME\nEOF", "hi /\n", "", 0},
		{"loop and variables", "for f in a b; do echo \"$f-$((1+1))\"; done", "a-2\nb-2\n", "", 0},
		{"command substitution", "n=$(grep -c beta b.txt); echo \"n=$n\"", "n=2\n", "", 0},
		{"function", "f() { echo \"[$1]\"; }; f x | cat", "[x]\n", "", 0},
		{"subshell", "(cd sub && pwd); pwd", "/sub\n/\n", "", 0},
		{"exit status", "false; echo $?; exit 3", "1\n", "", 3},
		{"type", "type cat cd if; command -v grep", "cat is a shell builtin\ncd is a shell builtin\nif is a shell keyword\ngrep\n", "", 0},
		{"type not found", "type go", "", "type: go: not found", 1},
		{"command runs a builtin", "command ls sub", "file\n", "", 0},
		{"source", "echo 'echo sourced $1' > s.sh; . s.sh x; cd sub && source ../s.sh y", "sourced x\nsourced y\n", "", 0},
		{"unsupported fd", "echo x 3>f", "", "unsupported redirect fd: 3", 1},
	})
}

func TestDirAndEnvOptions(t *testing.T) {
	fsys := newTree(t)
	res := run(t, fsys, "pwd; cat file; echo $FOO", Options{Dir: "sub", Env: []string{"FOO=bar", "TMPDIR=/tmp"}})
	assert.Equal(t, "/sub\nin sub\nbar\n", res.Stdout)
	assert.Empty(t, res.Stderr)

	_, err := Run(t.Context(), fsys, "pwd", Options{Dir: "a.txt"})
	assert.ErrorContains(t, err, "working directory")
	res = run(t, fsys, "pwd", Options{Dir: "../.."})
	assert.Equal(t, "/\n", res.Stdout)
}

func TestExternalProgramsRefused(t *testing.T) {
	cases := []struct {
		name, cmd, program string
		code               int
	}{
		{"go build", "go build ./...", "go", 127},
		{"absolute path", "/bin/ls", "/bin/ls", 127},
		{"relative path", "echo 'echo x' > s.sh; ./s.sh", "./s.sh", 127},
		{"bash -c", "bash -c ls", "bash", 127},
		{"env", "env ls", "env", 127},
		{"exec", "exec go version", "go", 127},
		{"command", "command go version", "go", 127},
		{"builtin", "builtin go", "", 1},
		{"eval", "eval 'go version'", "go", 127},
		{"xargs", "echo version | xargs go", "go", 127},
		{"pipeline", "git log | head -n 1", "git", 0},
		{"command substitution", "x=$(go version); echo \"[$x]\"", "go", 0},
		{"background", "go version & wait", "go", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, newTree(t), tc.cmd, Options{})
			assert.Equal(t, tc.code, res.ExitCode, res.Stderr)
			if tc.program != "" {
				assert.Contains(t, res.Stderr, "plan mode: "+tc.program+
					": external programs cannot run in plan mode; builtins: awk, basename, cat, cp, cut, dirname, find, grep, head, jq, ls,")
			}
		})
	}
	res := run(t, newTree(t), "x=$(go version); echo \"[$x]\"", Options{})
	assert.Equal(t, "[]\n", res.Stdout)
}

func TestHostIsolation(t *testing.T) {
	leak := filepath.Join(t.TempDir(), "planshell-leak")
	cases := []shellCase{
		{"read passwd", "cat /etc/passwd", "", "cat: /etc/passwd: No such file or directory", 1},
		{"list proc", "ls /proc", "", "ls: cannot access '/proc'", 2},
		{"find etc", "find /etc -name passwd", "", "find: '/etc'", 1},
		{"grep etc", "grep -r root /etc", "", "grep: /etc: No such file or directory", 2},
		{"write tmp", "echo x > " + leak, "", leak + ": No such file or directory", 1},
		{"write interp fifo name", "echo x > /tmp/sh-interp-1", "", "No such file or directory", 1},
		{"glob", "echo /etc/* /proc/*/status", "/etc/* /proc/*/status\n", "", 0},
		{"test", "[ -e /etc/passwd ] || [ -r /bin/sh ] || [ -x /bin/sh ] || echo none", "none\n", "", 0},
		{"cd", "cd /etc", "", "cd: no such file or directory", 1},
		{"source", "source /etc/profile", "", "source: open /etc/profile: No such file or directory", 1},
		{"source on PATH", "source sh", "", "source: open /sh: No such file or directory", 1},
		{"type -P", "type -P sh bash; command -v /bin/sh sh", "", "", 1},
		{"builtin type", "builtin type -p ls; command type sh", "", "type: sh: not found", 1},
		{"pwd -P", "PWD=/proc/self/cwd; pwd -P; builtin pwd -P", "/proc/self/cwd\n/proc/self/cwd\n", "", 0},
		{"home of user", "echo ~root ~root/x", "~root ~root/x\n", "", 0},
		{"no host environment", "echo \"${USER-}${GOPATH-}${TMPDIR-}\"", "\n", "", 0},
	}
	runCases(t, cases)
	_, err := os.Stat(leak)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	_, err = Run(t.Context(), newTree(t), "cat <(echo x)", Options{})
	require.ErrorIs(t, err, ErrSyntax)
	assert.ErrorContains(t, err, "process substitution is not supported in plan mode")
}

// TestPlanOverlay runs commands over a real plan overlay: the disk is never touched.
func TestPlanOverlay(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "src"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("package a // old\n"), 0o644))
	root, err := security.Open(dir, security.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	overlay := plan.New(root)

	res := run(t, overlay.Fs(), "sed -i 's/old/new/' src/a.go && mkdir -p docs && echo hi > docs/x.md && "+
		"mv src/a.go src/b.go && grep -rn new . && find . -type f | sort && cat ../../src/b.go", Options{})
	assert.Equal(t, "./src/b.go:1:package a // new\n./docs/x.md\n./src/b.go\npackage a // new\n", res.Stdout)
	assert.Empty(t, res.Stderr)
	assert.Zero(t, res.ExitCode)

	data, err := os.ReadFile(filepath.Join(dir, "src", "a.go"))
	require.NoError(t, err)
	assert.Equal(t, "package a // old\n", string(data), "the disk is unchanged")
	assert.NoDirExists(t, filepath.Join(dir, "docs"))
}

func TestSyntaxError(t *testing.T) {
	for _, cmd := range []string{"echo 'unterminated", "if then fi", "a |"} {
		_, err := Run(t.Context(), newTree(t), cmd, Options{})
		require.ErrorIs(t, err, ErrSyntax, cmd)
		assert.Regexp(t, `1:\d+`, err.Error(), "the position is given")
	}
}

func TestContextEndsRun(t *testing.T) {
	for _, cmd := range []string{
		"while true; do :; done",
		"while true; do echo y; done | head -n 1",
		"while true; do grep -r TODO . > /dev/null; done",
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		_, err := Run(ctx, newTree(t), cmd, Options{})
		cancel()
		assert.ErrorIs(t, err, context.DeadlineExceeded, cmd)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, newTree(t), "echo start; while true; do :; done", Options{})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, "start\n", res.Stdout, "what was printed is kept")

	ctx, cancel = context.WithCancel(t.Context())
	cancel()
	_, err = Run(ctx, newTree(t), "echo hi", Options{})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestSizeCaps(t *testing.T) {
	fsys := newTree(t)
	big, err := fsys.Create("/big")
	require.NoError(t, err)
	require.NoError(t, big.Truncate(maxFileSize+1))
	require.NoError(t, big.Close())
	res := run(t, fsys, "cat big; grep x big; cp big c", Options{})
	assert.Equal(t, 1, res.ExitCode)
	assert.Equal(t, "cat: big: file too large (plan mode files are at most 64 MiB)\n"+
		"grep: big: file too large (plan mode files are at most 64 MiB)\n"+
		"cp: cannot copy 'big' to 'c': file too large (plan mode files are at most 64 MiB)\n", res.Stderr)

	f, err := fsys.Create("/f")
	require.NoError(t, err)
	w := &sizeCapped{file: f, name: "f", size: maxFileSize - 2}
	_, err = w.Write([]byte("ab"))
	assert.NoError(t, err)
	_, err = w.Write([]byte("c"))
	assert.ErrorIs(t, err, errTooLarge, "a redirection cannot grow a file past maxFileSize")
}

func TestOutputTruncated(t *testing.T) {
	res := run(t, newTree(t), "echo 0123456789abcdef; echo fedcba9876543210 >&2", Options{MaxOutput: 10})
	assert.Equal(t, "0123456789", res.Stdout)
	assert.Equal(t, "fedcba9876", res.Stderr)
	assert.True(t, res.Truncated)

	res = run(t, newTree(t), "for i in 1 2 3; do cat a.txt; done", Options{})
	assert.Equal(t, strings.Repeat("alpha\nbeta TODO\ngamma\n", 3), res.Stdout)
	assert.False(t, res.Truncated)
}

func TestConcurrentRuns(t *testing.T) {
	fsys := newTree(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			res, err := Run(t.Context(), fsys, "grep -rc TODO src | sort; cd sub && pwd", Options{})
			assert.NoError(t, err)
			assert.Equal(t, "src/.hidden:0\nsrc/main.go:1\nsrc/util.go:0\n/sub\n", res.Stdout)
		})
	}
	wg.Wait()
}

func TestCommands(t *testing.T) {
	assert.Equal(t, []string{"awk", "basename", "cat", "cp", "cut", "dirname", "find", "grep", "head", "jq", "ls",
		"mkdir", "mv", "rm", "sed", "sort", "tail", "touch", "tr", "uniq", "wc", "xargs"}, Commands())
}

func TestBrokenPipeIsQuiet(t *testing.T) {
	fsys := newTree(t)
	require.NoError(t, afero.WriteFile(fsys, "/big", []byte(strings.Repeat("x", 1<<20)), 0o644))
	res := run(t, fsys, "cat big | head -c 1; echo \" ${PIPESTATUS[@]:-}\"", Options{})
	assert.Equal(t, "x \n", res.Stdout)
	assert.Empty(t, res.Stderr)
}

package builtin

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitTools returns the git module over a root at dir.
func gitTools(t testing.TB, dir string) *Git {
	t.Helper()
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return &Git{Deps: Deps{Root: root}.Ready()}
}

// gitRun runs a git tool through its declaration (schema defaults, validation), as a
// call from a client would.
func gitRun(t *testing.T, g *Git, tool string, args map[string]any) (any, *definitions.ToolError) {
	t.Helper()
	for _, b := range All() {
		if b.Def.Name == tool {
			return b.Run(t.Context(), g.Deps, args)
		}
	}
	t.Fatalf("no tool %s", tool)
	return nil, nil
}

func write(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// gitOut runs git in dir and returns its output.
func gitOut(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "--no-optional-locks"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	require.NoError(t, err, "git %v", args)
	return string(out)
}

// newGitRepo makes a repository with two commits, then staged, unstaged, untracked and
// ignored changes.
func newGitRepo(t *testing.T) string {
	testenv.Program(t, "git")
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.txt", "one\ntwo\nthree\n")
	write(t, dir, "src/main.go", "package main\n")
	write(t, dir, ".gitignore", "build/\n*.log\n")
	write(t, dir, ".env", "TOKEN=first-secret-value\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first\n\nthe body")
	write(t, dir, "a.txt", "one\n2\nthree\n")
	write(t, dir, "b.txt", "bee\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "second")
	// staged, unstaged, untracked, ignored
	write(t, dir, "src/main.go", "package main\n\nfunc main() {}\n")
	git(t, dir, "add", "src/main.go")
	write(t, dir, "a.txt", "one\n2\nthree\nfour\n")
	write(t, dir, ".env", "TOKEN=second-secret-value\n")
	require.NoError(t, os.Remove(filepath.Join(dir, "b.txt")))
	write(t, dir, "new.txt", "new\n")
	write(t, dir, "newdir/x/y.txt", "y\n")
	write(t, dir, "build/out.bin", "ignored\n")
	write(t, dir, "debug.log", "ignored\n")
	write(t, dir, "onlyignored/z.log", "ignored\n")
	return dir
}

// porcelain gives git status --porcelain as entries of ours.
func porcelain(t *testing.T, dir string) []definitions.GitStatusEntry {
	words := map[byte]string{'M': "modified", 'A': "added", 'D': "deleted", 'T': "typechange", 'U': "unmerged", '?': "untracked", ' ': ""}
	var out []definitions.GitStatusEntry
	for _, line := range strings.Split(strings.TrimRight(gitOut(t, dir, "status", "--porcelain"), "\n"), "\n") {
		if line == "" {
			continue
		}
		e := definitions.GitStatusEntry{Path: line[3:], Index: words[line[0]], Worktree: words[line[1]]}
		if line[0] == '?' {
			e.Index = ""
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path }) // git lists the untracked last
	return out
}

func TestGitStatusMatchesGit(t *testing.T) {
	dir := newGitRepo(t)
	g := gitTools(t, dir)
	res, err := g.GitStatus(t.Context(), definitions.GitStatusParams{})
	require.NoError(t, err)
	assert.Equal(t, "main", res.Branch)
	assert.Equal(t, strings.TrimSpace(gitOut(t, dir, "rev-parse", "HEAD")), res.Head)
	assert.Equal(t, porcelain(t, dir), res.Entries)
	assert.Equal(t, 1, res.Staged)
	assert.Equal(t, 3, res.Unstaged)
	assert.Equal(t, 2, res.Untracked)
	assert.False(t, res.Clean)

	res, err = g.GitStatus(t.Context(), definitions.GitStatusParams{Path: "src"})
	require.NoError(t, err)
	assert.Equal(t, []definitions.GitStatusEntry{{Path: "src/main.go", Index: "modified"}}, res.Entries)
	res, err = g.GitStatus(t.Context(), definitions.GitStatusParams{Path: "newdir/x"})
	require.NoError(t, err)
	assert.Equal(t, []definitions.GitStatusEntry{{Path: "newdir/x/", Worktree: "untracked"}}, res.Entries)
}

func TestGitStatusUpstream(t *testing.T) {
	dir := newGitRepo(t)
	git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD~1")
	git(t, dir, "config", "branch.main.remote", "origin")
	git(t, dir, "config", "branch.main.merge", "refs/heads/main")
	res, err := gitTools(t, dir).GitStatus(t.Context(), definitions.GitStatusParams{})
	require.NoError(t, err)
	assert.Equal(t, "origin/main", res.Upstream)
	require.NotNil(t, res.Ahead)
	assert.Equal(t, 1, *res.Ahead)
	assert.Equal(t, 0, *res.Behind)
}

func TestGitDiff(t *testing.T) {
	dir := newGitRepo(t)
	g := gitTools(t, dir)

	res, err := g.GitDiff(t.Context(), definitions.GitDiffParams{Context: 3})
	require.NoError(t, err)
	assert.Equal(t, []definitions.GitFileChange{
		{Path: ".env", Status: "modified", Secret: true},
		{Path: "a.txt", Status: "modified", Added: 1},
		{Path: "b.txt", Status: "deleted", Removed: 1},
	}, res.Files)
	assert.Contains(t, res.Diff, "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,4 @@\n one\n 2\n three\n+four\n")
	assert.NotContains(t, res.Diff, "secret-value")
	assert.Contains(t, res.Diff, "Secret file: its content is not shown")
	assert.Equal(t, "index", res.From)
	assert.Equal(t, "worktree", res.To)

	res, err = g.GitDiff(t.Context(), definitions.GitDiffParams{Staged: true, Context: 3})
	require.NoError(t, err)
	assert.Equal(t, []definitions.GitFileChange{{Path: "src/main.go", Status: "modified", Added: 2}}, res.Files)
	assert.Equal(t, "index", res.To)

	res, err = g.GitDiff(t.Context(), definitions.GitDiffParams{Ref: "HEAD~1", Path: "a.txt", Context: 0})
	require.NoError(t, err)
	assert.Equal(t, []definitions.GitFileChange{{Path: "a.txt", Status: "modified", Added: 2, Removed: 1}}, res.Files)
	assert.Contains(t, res.Diff, "@@ -2 +2 @@\n-two\n+2\n")

	// What git itself counts.
	stat := gitOut(t, dir, "diff", "--numstat", "HEAD~1", "--", "a.txt", "src")
	assert.Equal(t, "2\t1\ta.txt\n2\t0\tsrc/main.go\n", stat)
	res, err = g.GitDiff(t.Context(), definitions.GitDiffParams{Ref: "HEAD~1", Context: 3})
	require.NoError(t, err)
	assert.Equal(t, 2+2, res.Added, "a.txt and src/main.go; .env is secret, b.txt is in neither HEAD~1 nor the working tree")
}

func TestGitDiffTruncates(t *testing.T) {
	testenv.Program(t, "git")
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	big := strings.Repeat("a line of text\n", 20000)
	write(t, dir, "big.txt", big)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "big")
	write(t, dir, "big.txt", strings.ReplaceAll(big, "a line", "one line"))
	res, err := gitTools(t, dir).GitDiff(t.Context(), definitions.GitDiffParams{})
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	assert.LessOrEqual(t, len(res.Diff), gitMaxDiff)
	assert.Equal(t, 20000, res.Files[0].Added, "the counts stay whole")
}

func TestGitLog(t *testing.T) {
	dir := newGitRepo(t)
	g := gitTools(t, dir)
	res, err := g.GitLog(t.Context(), definitions.GitLogParams{MaxCount: 20})
	require.NoError(t, err)
	require.Len(t, res.Commits, 2)
	assert.Equal(t, "second", res.Commits[0].Subject)
	assert.Equal(t, "first", res.Commits[1].Subject)
	assert.Equal(t, "the body", res.Commits[1].Body)
	assert.Equal(t, "t", res.Commits[0].Author)
	assert.Equal(t, "t@example.com", res.Commits[0].Email)
	assert.Equal(t, res.Commits[0].Hash[:7], res.Commits[0].Short)
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$`, res.Commits[0].Date)
	assert.False(t, res.More)

	res, err = g.GitLog(t.Context(), definitions.GitLogParams{MaxCount: 1})
	require.NoError(t, err)
	assert.Len(t, res.Commits, 1)
	assert.True(t, res.More)

	res, err = g.GitLog(t.Context(), definitions.GitLogParams{MaxCount: 20, Path: "src"})
	require.NoError(t, err)
	require.Len(t, res.Commits, 1)
	assert.Equal(t, "first", res.Commits[0].Subject)
	res, err = g.GitLog(t.Context(), definitions.GitLogParams{MaxCount: 20, Ref: "HEAD~1"})
	require.NoError(t, err)
	require.Len(t, res.Commits, 1)
	assert.Equal(t, "first", res.Commits[0].Subject)
}

func TestGitShow(t *testing.T) {
	dir := newGitRepo(t)
	g := gitTools(t, dir)
	res, err := g.GitShow(t.Context(), definitions.GitShowParams{Ref: "HEAD"})
	require.NoError(t, err)
	assert.Equal(t, "second", res.Commit.Subject)
	require.Len(t, res.Commit.Parents, 1)
	assert.Equal(t, []definitions.GitFileChange{
		{Path: "a.txt", Status: "modified", Added: 1, Removed: 1},
		{Path: "b.txt", Status: "added", Added: 1},
	}, res.Files)
	assert.Contains(t, res.Diff, "--- /dev/null\n+++ b/b.txt\n")

	res, err = g.GitShow(t.Context(), definitions.GitShowParams{Ref: "HEAD~1"})
	require.NoError(t, err)
	assert.Empty(t, res.Commit.Parents)
	assert.Len(t, res.Files, 4, "a root commit adds every file")
	assert.NotContains(t, res.Diff, "first-secret-value")

	short := strings.TrimSpace(gitOut(t, dir, "rev-parse", "--short", "HEAD~1"))
	res, err = g.GitShow(t.Context(), definitions.GitShowParams{Ref: short, Path: "a.txt"})
	require.NoError(t, err)
	assert.Equal(t, "one\ntwo\nthree\n", *res.Content)

	git(t, dir, "tag", "-a", "v1", "-m", "v1", "HEAD~1")
	res, err = g.GitShow(t.Context(), definitions.GitShowParams{Ref: "v1", Path: "./a.txt"})
	require.NoError(t, err)
	assert.Equal(t, "one\ntwo\nthree\n", *res.Content)

	_, err = g.GitShow(t.Context(), definitions.GitShowParams{Ref: "HEAD", Path: ".env"})
	assert.ErrorIs(t, err, security.ErrSecret)
	_, err = g.GitShow(t.Context(), definitions.GitShowParams{Ref: "HEAD", Path: "src"})
	assert.ErrorContains(t, err, "is a directory")
	_, err = g.GitShow(t.Context(), definitions.GitShowParams{Ref: "HEAD", Path: "nope.txt"})
	assert.ErrorContains(t, err, "does not exist at HEAD")
}

// TestGitAttacks: what must be refused or confined.
func TestGitAttacks(t *testing.T) {
	testenv.Program(t, "git")
	t.Run("no repository", func(t *testing.T) {
		_, terr := gitRun(t, gitTools(t, t.TempDir()), "git_status", map[string]any{})
		require.NotNil(t, terr)
		assert.Equal(t, definitions.ValidationError, terr.Type)
		assert.Contains(t, terr.Message, "not a git repository")
	})
	t.Run("gitdir file pointing outside", func(t *testing.T) {
		outside := newGitRepo(t)
		dir := t.TempDir()
		write(t, dir, ".git", "gitdir: "+filepath.Join(outside, ".git")+"\n")
		for _, tool := range []string{"git_status", "git_log", "git_diff", "git_show"} {
			_, terr := gitRun(t, gitTools(t, dir), tool, map[string]any{})
			require.NotNil(t, terr, tool)
			assert.Contains(t, terr.Message, "not a git repository: .git is a file", tool)
		}
	})
	t.Run("symlinked .git pointing outside", func(t *testing.T) {
		outside := newGitRepo(t)
		dir := t.TempDir()
		require.NoError(t, os.Symlink(filepath.Join(outside, ".git"), filepath.Join(dir, ".git")))
		_, terr := gitRun(t, gitTools(t, dir), "git_log", map[string]any{})
		require.NotNil(t, terr)
		assert.Contains(t, terr.Message, "symbolic link")
	})
	t.Run("alternates outside", func(t *testing.T) {
		outside := newGitRepo(t)
		dir := t.TempDir()
		git(t, dir, "init", "-q")
		write(t, dir, ".git/objects/info/alternates", filepath.Join(outside, ".git/objects")+"\n")
		head := strings.TrimSpace(gitOut(t, outside, "rev-parse", "HEAD"))
		_, terr := gitRun(t, gitTools(t, dir), "git_show", map[string]any{"ref": head})
		require.NotNil(t, terr, "the outside objects stay unreachable")
		assert.Contains(t, terr.Message, "unknown revision")
	})
	dir := newGitRepo(t)
	g := gitTools(t, dir)
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		typ  string
		want string
	}{
		{"path outside", "git_status", map[string]any{"path": "../x"}, definitions.PermissionError, "outside the project root"},
		{"absolute path outside", "git_log", map[string]any{"path": "/etc"}, definitions.PermissionError, ""},
		{"show outside", "git_show", map[string]any{"path": "../../etc/passwd"}, definitions.PermissionError, "outside the project root"},
		{"ref is an option", "git_show", map[string]any{"ref": "--output=x"}, definitions.ValidationError, "not a revision"},
		{"diff ref is an option", "git_diff", map[string]any{"ref": "-p"}, definitions.ValidationError, "not a revision"},
		{"log ref is a range", "git_log", map[string]any{"ref": "HEAD..main"}, definitions.ValidationError, "not a revision"},
		{"unknown ref", "git_log", map[string]any{"ref": "nope"}, definitions.ValidationError, "unknown revision"},
		{"max_count over 200", "git_log", map[string]any{"max_count": 201.0}, definitions.ValidationError, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, terr := gitRun(t, g, tc.tool, tc.args)
			require.NotNil(t, terr)
			assert.Equal(t, tc.typ, terr.Type, terr.Message)
			assert.Contains(t, terr.Message, tc.want)
		})
	}
	_, err := os.Stat(filepath.Join(dir, "x"))
	assert.ErrorIs(t, err, os.ErrNotExist, "no --output file")
}

func TestGitShowRefusesHugeAndBinaryFiles(t *testing.T) {
	testenv.Program(t, "git")
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	write(t, dir, "huge.txt", strings.Repeat("x", 11<<20))
	write(t, dir, "bin.dat", "a\x00b")
	write(t, dir, "long.txt", strings.Repeat("line\n", 40000))
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "big")
	g := gitTools(t, dir)
	_, terr := gitRun(t, g, "git_show", map[string]any{"path": "huge.txt"})
	require.NotNil(t, terr)
	assert.Contains(t, terr.Message, "too large")
	_, terr = gitRun(t, g, "git_show", map[string]any{"path": "bin.dat"})
	require.NotNil(t, terr)
	assert.Contains(t, terr.Message, "binary")
	res, terr := gitRun(t, g, "git_show", map[string]any{"path": "long.txt"})
	require.Nil(t, terr)
	show := res.(*definitions.GitShowResult)
	assert.True(t, show.Truncated)
	assert.LessOrEqual(t, len(*show.Content), gitMaxContent)
	res, terr = gitRun(t, g, "git_show", map[string]any{})
	require.Nil(t, terr)
	show = res.(*definitions.GitShowResult)
	assert.Equal(t, []definitions.GitFileChange{
		{Path: "bin.dat", Status: "added", Binary: true},
		{Path: "huge.txt", Status: "added", Binary: true},
		{Path: "long.txt", Status: "added", Added: 40000},
	}, show.Files)
}

// TestGitToolsWriteNothing: the repository's files are byte-identical after every tool ran
// (no index refresh, no lock files).
func TestGitToolsWriteNothing(t *testing.T) {
	dir := newGitRepo(t)
	before := snapshot(t, filepath.Join(dir, ".git"))
	g := gitTools(t, dir)
	for _, tool := range []string{"git_status", "git_diff", "git_log", "git_show"} {
		_, terr := gitRun(t, g, tool, map[string]any{})
		require.Nil(t, terr, tool)
	}
	assert.Equal(t, before, snapshot(t, filepath.Join(dir, ".git")))
}

func snapshot(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = info.ModTime().String() + string(data)
		return err
	}))
	return out
}

// TestGitStatusOnThisRepository compares git_status with git status on jido's own
// repository (hard-linked objects included).
func TestGitStatusOnThisRepository(t *testing.T) {
	testenv.Program(t, "git")
	dir := thisRepository(t)
	res, err := gitTools(t, dir).GitStatus(t.Context(), definitions.GitStatusParams{})
	require.NoError(t, err)
	want := porcelain(t, dir)
	if want == nil {
		want = []definitions.GitStatusEntry{}
	}
	assert.Equal(t, want, res.Entries)
	log, err := gitTools(t, dir).GitLog(t.Context(), definitions.GitLogParams{MaxCount: 5})
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSpace(gitOut(t, dir, "log", "-5", "--format=%H")), strings.Join(hashes(log.Commits), "\n"))
}

func hashes(cs []definitions.GitCommit) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Hash)
	}
	return out
}

// thisRepository returns the root of jido's repository, or skips.
func thisRepository(t testing.TB) string {
	dir, err := filepath.Abs("../..")
	require.NoError(t, err)
	if info, err := os.Stat(filepath.Join(dir, ".git")); err != nil || !info.IsDir() {
		t.Skip("not in a git checkout")
	}
	return dir
}

// BenchmarkGitStatus: git_status on jido's own repository beside `git status --porcelain`
// in the same run; the ratio is reported as x_git.
func BenchmarkGitStatus(b *testing.B) {
	testenv.Program(b, "git")
	dir := thisRepository(b)
	g := gitTools(b, dir)
	var ours, theirs float64
	b.Run("git_status", func(b *testing.B) {
		for b.Loop() {
			_, err := g.GitStatus(b.Context(), definitions.GitStatusParams{})
			require.NoError(b, err)
		}
		ours = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("git_binary", func(b *testing.B) {
		for b.Loop() {
			gitOut(b, dir, "status", "--porcelain")
		}
		theirs = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	if theirs > 0 {
		b.ReportMetric(ours/theirs, "x_git")
		b.Logf("git_status %.2f ms, git status --porcelain %.2f ms, ratio %.2f", ours/1e6, theirs/1e6, ours/theirs)
	}
}

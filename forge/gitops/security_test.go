package gitops

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hookNames are the hooks the operations of gitops would trigger if hooks ran.
var hookNames = []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-merge-commit",
	"post-merge", "post-checkout", "reference-transaction", "post-rewrite", "pre-auto-gc", "post-index-change"}

// touchScript writes an executable script at path that creates marker.
func touchScript(t *testing.T, path, marker string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\ntouch '"+marker+"'\ncat\n"), 0o755))
}

// noneRan asserts that the marker directory is empty: no planted program ran.
func noneRan(t *testing.T, markers, after string) {
	t.Helper()
	entries, err := os.ReadDir(markers)
	require.NoError(t, err)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Empty(t, names, "programs ran after %s", after)
}

func TestHooksNeverRun(t *testing.T) {
	r, dir := newRepo(t)
	markers := t.TempDir()
	hooksDir := filepath.Join(t.TempDir(), "hooks")
	for _, h := range hookNames {
		touchScript(t, filepath.Join(dir, ".git", "hooks", h), filepath.Join(markers, "git-hooks-"+h))
		touchScript(t, filepath.Join(hooksDir, h), filepath.Join(markers, "hooksPath-"+h))
	}
	touchScript(t, filepath.Join(hooksDir, "fsmonitor"), filepath.Join(markers, "fsmonitor"))
	gitT(t, dir, "config", "core.hooksPath", hooksDir)
	gitT(t, dir, "config", "core.fsmonitor", filepath.Join(hooksDir, "fsmonitor"))
	r, err := Open(dir) // after the config changed
	require.NoError(t, err)
	base := worktreeBase(t)

	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "from A\n"})
	noneRan(t, markers, "prepare and commit A")
	b := taskBranch(t, r, base, "B", map[string]string{"a.txt": "from B\n", "b.txt": "B\n"})
	_, err = r.PrepareBranch("C", 1, "main", []string{a.Branch, b.Branch}, base)
	requireToolError(t, err, definitions.ConflictError)
	noneRan(t, markers, "a dependency conflict")

	res, err := r.MergeBranches(dir, []string{a.Branch, b.Branch}, "main")
	require.NoError(t, err)
	require.False(t, res.Success)
	require.NoError(t, r.AbortMerge(dir))
	noneRan(t, markers, "merge and abort")
	res, err = r.MergeBranches(dir, []string{a.Branch, b.Branch}, "main")
	require.NoError(t, err)
	require.False(t, res.Success)
	writeFile(t, dir, "a.txt", "fixed\n")
	require.NoError(t, r.ConcludeMerge(dir, "fixed"))
	noneRan(t, markers, "merge and conclude")
	require.NoError(t, r.RemoveWorktree(a.Dir))
	_, err = r.Worktrees()
	require.NoError(t, err)
	noneRan(t, markers, "worktree removal")

	// the planted hooks do run under a plain git: the test can see them
	cmd := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
	require.NoError(t, cmd.Run())
	assert.FileExists(t, filepath.Join(markers, "hooksPath-pre-commit"))
}

func TestAttributesNamingDriversRunNothing(t *testing.T) {
	r, dir := newRepo(t)
	base := worktreeBase(t)
	markers := t.TempDir()

	// an agent names drivers the repository does not define: merges still work
	a := taskBranch(t, r, base, "A", map[string]string{".gitattributes": "* merge=evil filter=evil diff=evil\n", "a.txt": "one\nfrom A\n"})
	b := taskBranch(t, r, base, "B", map[string]string{"a.txt": "from B\none\n"})
	res, err := r.MergeBranches(dir, []string{a.Branch, b.Branch}, "main")
	require.NoError(t, err)
	require.True(t, res.Success, "%+v", res)
	assert.Equal(t, "from B\none\nfrom A\n", readFile(t, dir, "a.txt"), "git's own three-way merge")

	// the repository's config defines them (an agent cannot, but the user might): still nothing runs
	for _, k := range []string{"merge.evil.driver", "filter.evil.clean", "filter.evil.smudge", "filter.evil.process", "diff.evil.textconv"} {
		script := filepath.Join(markers, "..", filepath.Base(markers)+"-"+k)
		touchScript(t, script, filepath.Join(markers, k))
		gitT(t, dir, "config", k, script)
	}
	r, err = Open(dir)
	require.NoError(t, err)
	c := taskBranch(t, r, base, "C", map[string]string{"a.txt": "from B\none\nfrom A\nfrom C\n", "c.txt": "C\n"})
	noneRan(t, markers, "checkout and commit with filters")
	d := taskBranch(t, r, base, "D", map[string]string{"a.txt": "from D\none\nfrom A\n"})
	res, err = r.MergeBranches(dir, []string{c.Branch}, "main")
	require.NoError(t, err)
	require.True(t, res.Success)
	_, err = r.MergeBranches(dir, []string{d.Branch}, "main")
	requireToolError(t, err, definitions.ProcessError) // a merge needing the neutralised driver fails
	noneRan(t, markers, "merges with a driver")
	assert.Empty(t, gitT(t, dir, "status", "--porcelain"), "the failed merge was aborted")

	// the planted filter does run under a plain git: the test can see it
	writeFile(t, dir, "z.txt", "z\n")
	gitT(t, dir, "add", "z.txt")
	assert.FileExists(t, filepath.Join(markers, "filter.evil.process"))
}

func TestWorktreeGitFileIsNeverFollowed(t *testing.T) {
	r, _ := newRepo(t)
	base := worktreeBase(t)
	markers := t.TempDir()
	p, err := r.PrepareBranch("A", 1, "main", nil, base)
	require.NoError(t, err)
	require.True(t, filepath.IsAbs(p.Dir), "the agent's files go in the worktree, nowhere else")
	before := gitT(t, p.Dir, "rev-parse", "HEAD")

	// the agent makes its own git directory, full of traps, and points .git at it
	evil := filepath.Join(p.Dir, "evil")
	gitT(t, p.Dir, "init", "-q", "--bare", evil)
	touchScript(t, filepath.Join(evil, "hooks", "pre-commit"), filepath.Join(markers, "pre-commit"))
	touchScript(t, filepath.Join(p.Dir, "fsmon"), filepath.Join(markers, "fsmonitor"))
	touchScript(t, filepath.Join(p.Dir, "clean"), filepath.Join(markers, "clean"))
	writeFile(t, evil, "config", "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "+filepath.Join(p.Dir, "fsmon")+
		"\n\thooksPath = "+filepath.Join(evil, "hooks")+"\n[filter \"x\"]\n\tclean = "+filepath.Join(p.Dir, "clean")+"\n")
	writeFile(t, p.Dir, ".gitattributes", "* filter=x\n")
	writeFile(t, p.Dir, ".git", "gitdir: "+evil+"\n")
	writeFile(t, p.Dir, "work.txt", "done\n")

	commit, changed, err := r.CommitAll(p.Dir, "work")
	require.NoError(t, err)
	require.True(t, changed)
	noneRan(t, markers, "commit")
	assert.Equal(t, commit, gitT(t, r.Dir(), "rev-parse", "forge/A/1"), "the commit went to the task branch")
	assert.Equal(t, before, gitT(t, r.Dir(), "rev-parse", "forge/A/1~1"))
}

func TestHasMarkersIgnoresSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(outside, []byte("<<<<<<< x\n"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link")))
	require.NoError(t, mkfifo(filepath.Join(dir, "fifo")))
	writeFile(t, dir, "marked", "a\n<<<<<<< HEAD\n")
	writeFile(t, dir, "long", string(make([]byte, 10000))+"\n>>>>>>>\n")
	writeFile(t, dir, "clean", "a\n <<<<<<< indented\n<<<<<<<< eight\n")

	for name, want := range map[string]bool{"link": false, "fifo": false, "missing": false, "marked": true, "long": true, "clean": false} {
		got, err := hasMarkers(dir, name)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
}

func TestIsMarker(t *testing.T) {
	for line, want := range map[string]bool{
		"<<<<<<< HEAD\n": true, ">>>>>>> b\n": true, "<<<<<<<\n": true, ">>>>>>>": true, "<<<<<<<\r\n": true,
		"=======\n": false, "<<<<<<<<\n": false, " <<<<<<< x\n": false, "<<<<<<x\n": false, "": false,
	} {
		assert.Equal(t, want, isMarker([]byte(line)), "%q", line)
	}
}

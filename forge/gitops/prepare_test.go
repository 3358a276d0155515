package gitops

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrepareBranchWithDependencies(t *testing.T) {
	r, dir := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "one from A\n"})
	b := taskBranch(t, r, base, "B", map[string]string{"b.txt": "two from B\n"})
	assert.Equal(t, "forge/A/1", a.Branch)
	assert.Equal(t, filepath.Join(base, "A-1"), a.Dir)

	c, err := r.PrepareBranch("C", 1, "", []string{a.Branch, b.Branch}, base)
	require.NoError(t, err)
	assert.Equal(t, "forge/C/1", c.Branch)
	assert.Equal(t, "main", c.BaseRef)
	assert.Equal(t, []string{"forge/A/1", "forge/B/1"}, c.MergedDeps)
	assert.Empty(t, c.Conflicts)
	assert.Equal(t, "one from A\n", readFile(t, c.Dir, "a.txt"))
	assert.Equal(t, "two from B\n", readFile(t, c.Dir, "b.txt"))
	assert.Equal(t, "jido <jido@localhost>", gitT(t, c.Dir, "log", "-1", "--format=%an <%ae>"))
	assert.Equal(t, "one\n", readFile(t, dir, "a.txt"), "the main work tree is untouched")

	list, err := r.Worktrees()
	require.NoError(t, err)
	require.Len(t, list, 4)
	assert.True(t, list[0].Main)
	assert.Equal(t, dir, list[0].Path)
	assert.Equal(t, "main", list[0].Branch)
	assert.Equal(t, Worktree{Path: c.Dir, Head: gitT(t, c.Dir, "rev-parse", "HEAD"), Branch: "forge/C/1"}, list[3])
}

func TestPrepareBranchIsIdempotent(t *testing.T) {
	r, _ := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "A\n"})
	first, err := r.PrepareBranch("C", 2, "main", []string{a.Branch}, base)
	require.NoError(t, err)
	head := gitT(t, first.Dir, "rev-parse", "HEAD")
	writeFile(t, first.Dir, "work.txt", "in progress\n")

	again, err := r.PrepareBranch("C", 2, "main", []string{a.Branch}, base)
	require.NoError(t, err)
	assert.Equal(t, first, again)
	assert.Equal(t, head, gitT(t, again.Dir, "rev-parse", "HEAD"), "no new merge, no new branch")
	assert.Equal(t, "in progress\n", readFile(t, again.Dir, "work.txt"), "the agent's work is kept")
	list, err := r.Worktrees()
	require.NoError(t, err)
	assert.Len(t, list, 3)
}

func TestPrepareBranchResumesMissingPieces(t *testing.T) {
	r, dir := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "A\n"})

	// a crash after the branch was made and before its worktree was
	gitT(t, dir, "branch", "forge/C/1", "main")
	c, err := r.PrepareBranch("C", 1, "main", nil, base)
	require.NoError(t, err)
	assert.Equal(t, "forge/C/1", gitT(t, c.Dir, "symbolic-ref", "--short", "HEAD"))

	// resuming with a dependency not merged yet merges it
	c, err = r.PrepareBranch("C", 1, "main", []string{a.Branch}, base)
	require.NoError(t, err)
	assert.Equal(t, []string{a.Branch}, c.MergedDeps)
	assert.Equal(t, "A\n", readFile(t, c.Dir, "a.txt"))

	// a worktree whose directory vanished is forgotten and made again
	require.NoError(t, os.RemoveAll(c.Dir))
	c, err = r.PrepareBranch("C", 1, "main", []string{a.Branch}, base)
	require.NoError(t, err)
	assert.Equal(t, "A\n", readFile(t, c.Dir, "a.txt"))
}

func TestPrepareBranchDependencyConflict(t *testing.T) {
	r, _ := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "from A\n"})
	b := taskBranch(t, r, base, "B", map[string]string{"a.txt": "from B\n"})

	c, err := r.PrepareBranch("C", 1, "main", []string{a.Branch, b.Branch}, base)
	terr := requireToolError(t, err, definitions.ConflictError)
	assert.Equal(t, []string{"a.txt"}, terr.Details["conflicts"])
	assert.Equal(t, b.Branch, terr.Details["dependency"])
	require.NotNil(t, c)
	assert.Equal(t, []string{a.Branch}, c.MergedDeps)
	assert.Equal(t, []string{"a.txt"}, c.Conflicts)
	assert.Equal(t, "from A\n", readFile(t, c.Dir, "a.txt"), "the merge was aborted: no markers")
	assert.Empty(t, gitT(t, c.Dir, "status", "--porcelain"))
}

func TestPrepareBranchRefuses(t *testing.T) {
	r, _ := newRepo(t)
	base := worktreeBase(t)
	require.NoError(t, os.Mkdir(filepath.Join(base, "X-1"), 0o755))
	writeFile(t, base, "X-1/precious.txt", "keep\n")

	for name, call := range map[string]func() error{
		"bad task id":      func() error { _, err := r.PrepareBranch("../x", 1, "", nil, base); return err },
		"option task id":   func() error { _, err := r.PrepareBranch("-x", 1, "", nil, base); return err },
		"space task id":    func() error { _, err := r.PrepareBranch("a b", 1, "", nil, base); return err },
		"negative attempt": func() error { _, err := r.PrepareBranch("T", -1, "", nil, base); return err },
		"relative base":    func() error { _, err := r.PrepareBranch("T", 1, "", nil, "wt"); return err },
		"option base ref":  func() error { _, err := r.PrepareBranch("T", 1, "--help", nil, base); return err },
		"missing base ref": func() error { _, err := r.PrepareBranch("T", 1, "nope", nil, base); return err },
		"option dependency": func() error {
			_, err := r.PrepareBranch("T", 1, "", []string{"--upload-pack=touch x"}, base)
			return err
		},
		"missing dependency":     func() error { _, err := r.PrepareBranch("T", 1, "", []string{"forge/none/1"}, base); return err },
		"expanding dependency":   func() error { _, err := r.PrepareBranch("T", 1, "", []string{"@{-1}"}, base); return err },
		"self dependency":        func() error { _, err := r.PrepareBranch("T", 1, "", []string{"forge/T/1"}, base); return err },
		"dependency with spaces": func() error { _, err := r.PrepareBranch("T", 1, "", []string{"a b"}, base); return err },
	} {
		t.Run(name, func(t *testing.T) {
			requireToolError(t, call(), definitions.ValidationError)
		})
	}
	assert.False(t, r.BranchExists("forge/T/1"), "nothing was made")

	_, err := r.PrepareBranch("X", 1, "", nil, base)
	requireToolError(t, err, definitions.ConflictError)
	assert.Equal(t, "keep\n", readFile(t, base, "X-1/precious.txt"))
}

func TestRemoveWorktree(t *testing.T) {
	r, dir := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"new.txt": "x\n"})
	writeFile(t, a.Dir, "uncommitted.txt", "lost\n")

	require.NoError(t, r.RemoveWorktree(a.Dir))
	assert.NoDirExists(t, a.Dir)
	assert.True(t, r.BranchExists(a.Branch), "the branch stays")
	list, err := r.Worktrees()
	require.NoError(t, err)
	assert.Len(t, list, 1)

	requireToolError(t, r.RemoveWorktree(dir), definitions.PermissionError)
	requireToolError(t, r.RemoveWorktree(a.Dir), definitions.ValidationError)
	requireToolError(t, r.RemoveWorktree(t.TempDir()), definitions.ValidationError)
}

// TestPrepareInParallel: tasks prepared from several goroutines at once (the Executor runs
// tasks in parallel) all get their branch and worktree.
func TestPrepareInParallel(t *testing.T) {
	r, _ := newRepo(t)
	base := worktreeBase(t)
	errs := make(chan error, 24)
	for i := range 24 {
		go func() {
			_, err := r.PrepareBranch(fmt.Sprintf("T%d", i), 1, "", nil, base)
			errs <- err
		}()
	}
	for range 24 {
		assert.NoError(t, <-errs)
	}
	list, err := r.Worktrees()
	require.NoError(t, err)
	assert.Len(t, list, 25)
}

package gitops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMergeBranchesIntoMain(t *testing.T) {
	r, dir := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "one from A\n"})
	b := taskBranch(t, r, base, "B", map[string]string{"b.txt": "two from B\n"})

	res, err := r.MergeBranches(dir, []string{a.Branch, b.Branch}, "main")
	require.NoError(t, err)
	assert.Equal(t, &MergeResult{Success: true, Merged: []string{a.Branch, b.Branch}}, res)
	assert.Equal(t, "one from A\n", readFile(t, dir, "a.txt"))
	assert.Equal(t, "two from B\n", readFile(t, dir, "b.txt"))
	assert.Equal(t, "Merge branch 'forge/B/1' into main", gitT(t, dir, "log", "-1", "--format=%s"))
	assert.Len(t, strings.Fields(gitT(t, dir, "log", "-1", "--format=%P")), 2, "a merge commit")
}

func TestMergeBranchesChecksTargetOut(t *testing.T) {
	r, _ := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "A\n"})
	ref, err := r.PrepareBranch("refinery", 1, "main", nil, base)
	require.NoError(t, err)
	integ := taskBranch(t, r, base, "integration", map[string]string{"c.txt": "c\n"})
	require.NoError(t, r.RemoveWorktree(integ.Dir)) // free the branch for the refinery

	res, err := r.MergeBranches(ref.Dir, []string{a.Branch}, integ.Branch)
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.Equal(t, integ.Branch, gitT(t, ref.Dir, "symbolic-ref", "--short", "HEAD"))
	assert.Equal(t, "A\n", readFile(t, ref.Dir, "a.txt"))
	assert.Equal(t, "c\n", readFile(t, ref.Dir, "c.txt"))
}

func TestMergeConflictThenConclude(t *testing.T) {
	r, dir := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "from A\n", "x.txt": "x\n"})
	b := taskBranch(t, r, base, "B", map[string]string{"a.txt": "from B\n"})

	res, err := r.MergeBranches(dir, []string{a.Branch, b.Branch}, "main")
	require.NoError(t, err)
	assert.Equal(t, &MergeResult{Merged: []string{a.Branch}, Source: b.Branch, Conflicts: []string{"a.txt"}}, res)
	assert.Contains(t, readFile(t, dir, "a.txt"), "<<<<<<< ", "the merge is left in progress for a conflict agent")

	err = r.ConcludeMerge(dir, "")
	terr := requireToolError(t, err, definitions.ConflictError)
	assert.Equal(t, []string{"a.txt"}, terr.Details["conflicts"])

	// only one marker left is still refused
	writeFile(t, dir, "a.txt", "from A\nfrom B\n>>>>>>> forge/B/1\n")
	requireToolError(t, r.ConcludeMerge(dir, ""), definitions.ConflictError)

	writeFile(t, dir, "a.txt", "from A and B\n")
	writeFile(t, dir, "artifacts/run/state.json", "{}\n") // untracked: no part of the merge
	require.NoError(t, r.ConcludeMerge(dir, ""))
	assert.Empty(t, gitT(t, dir, "ls-files", "artifacts"), "an untracked file stays untracked")
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "artifacts")))
	assert.Equal(t, "Merge branch 'forge/B/1' into main", gitT(t, dir, "log", "-1", "--format=%B"), "git's message, its comments stripped")
	assert.Len(t, strings.Fields(gitT(t, dir, "log", "-1", "--format=%P")), 2)
	assert.Equal(t, "from A and B\n", gitT(t, dir, "show", "HEAD:a.txt")+"\n")
	assert.Empty(t, gitT(t, dir, "status", "--porcelain"))

	requireToolError(t, r.ConcludeMerge(dir, ""), definitions.ValidationError) // no merge now
}

func TestConcludeMergeChecksStagedFiles(t *testing.T) {
	r, _ := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "from A\n"})
	ref, err := r.PrepareBranch("ref", 1, "main", nil, base)
	require.NoError(t, err)
	writeFile(t, ref.Dir, "a.txt", "from ref\n")
	_, _, err = r.CommitAll(ref.Dir, "ref")
	require.NoError(t, err)

	res, err := r.MergeBranches(ref.Dir, []string{a.Branch}, ref.Branch)
	require.NoError(t, err)
	require.False(t, res.Success)
	gitT(t, ref.Dir, "add", "a.txt") // someone staged the file, markers and all
	requireToolError(t, r.ConcludeMerge(ref.Dir, "merged"), definitions.ConflictError)

	writeFile(t, ref.Dir, "a.txt", "fixed\n")
	require.NoError(t, r.ConcludeMerge(ref.Dir, "merged"))
	assert.Equal(t, "merged", gitT(t, ref.Dir, "log", "-1", "--format=%B"))

}

func TestAbortMerge(t *testing.T) {
	r, dir := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "from A\n"})
	b := taskBranch(t, r, base, "B", map[string]string{"a.txt": "from B\n"})
	before := gitT(t, dir, "rev-parse", "HEAD")
	res, err := r.MergeBranches(dir, []string{b.Branch}, "main")
	require.NoError(t, err)
	require.True(t, res.Success)
	res, err = r.MergeBranches(dir, []string{a.Branch}, "main")
	require.NoError(t, err)
	require.False(t, res.Success)

	// another merge or a commit is refused while one is in progress
	_, err = r.MergeBranches(dir, []string{a.Branch}, "main")
	requireToolError(t, err, definitions.ConflictError)
	_, _, err = r.CommitAll(dir, "x")
	requireToolError(t, err, definitions.ConflictError)

	require.NoError(t, r.AbortMerge(dir))
	assert.Equal(t, "from B\n", readFile(t, dir, "a.txt"))
	assert.NotEqual(t, before, gitT(t, dir, "rev-parse", "HEAD"))
	assert.Empty(t, gitT(t, dir, "status", "--porcelain"))
	require.NoError(t, r.AbortMerge(dir), "nothing to abort is fine")
}

func TestMergeBranchesRefuses(t *testing.T) {
	r, dir := newRepo(t)
	base := worktreeBase(t)
	a := taskBranch(t, r, base, "A", map[string]string{"a.txt": "A\n"})
	gitT(t, dir, "tag", "v1")
	head := gitT(t, dir, "rev-parse", "HEAD")

	for name, tc := range map[string]struct {
		dir     string
		sources []string
		target  string
		typ     string
	}{
		"option source":       {dir, []string{"--upload-pack=touch /tmp/x"}, "main", definitions.ValidationError},
		"dash source":         {dir, []string{"-x"}, "main", definitions.ValidationError},
		"option target":       {dir, []string{a.Branch}, "--orphan=x", definitions.ValidationError},
		"missing source":      {dir, []string{"nope"}, "main", definitions.ValidationError},
		"missing target":      {a.Dir, []string{"main"}, "nope", definitions.ValidationError},
		"no sources":          {dir, nil, "main", definitions.ValidationError},
		"not a worktree":      {t.TempDir(), []string{a.Branch}, "main", definitions.ValidationError},
		"tag is not a branch": {dir, []string{"v1"}, "main", definitions.ValidationError},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := r.MergeBranches(tc.dir, tc.sources, tc.target)
			requireToolError(t, err, tc.typ)
		})
	}
	writeFile(t, dir, "b.txt", "changed, not committed\n")
	_, err := r.MergeBranches(dir, []string{a.Branch}, "main")
	requireToolError(t, err, definitions.ConflictError)
	assert.Equal(t, head, gitT(t, dir, "rev-parse", "HEAD"), "nothing was merged")
}

// TestMergeBesideUntrackedFiles: untracked files (the run's artifacts in the main work
// tree) do not stop a merge.
func TestMergeBesideUntrackedFiles(t *testing.T) {
	r, dir := newRepo(t)
	a, err := r.PrepareBranch("A", 1, "", nil, worktreeBase(t))
	require.NoError(t, err)
	writeFile(t, a.Dir, "new.txt", "from A\n")
	_, _, err = r.CommitAll(a.Dir, "A")
	require.NoError(t, err)
	writeFile(t, dir, "artifacts/run/state.json", "{}\n")
	res, err := r.MergeBranches(dir, []string{a.Branch}, "main")
	require.NoError(t, err)
	assert.True(t, res.Success)
	assert.FileExists(t, filepath.Join(dir, "new.txt"))
}

func TestCommitAll(t *testing.T) {
	r, _ := newRepo(t)
	p, err := r.PrepareBranch("T", 1, "", nil, worktreeBase(t))
	require.NoError(t, err)
	head := gitT(t, p.Dir, "rev-parse", "HEAD")

	commit, changed, err := r.CommitAll(p.Dir, "nothing")
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Equal(t, head, commit)

	writeFile(t, p.Dir, "dir/new.txt", "new\n")
	require.NoError(t, removeFile(p.Dir, "b.txt"))
	commit, changed, err = r.CommitAll(p.Dir, "-m is a message, not an option")
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, gitT(t, p.Dir, "rev-parse", "HEAD"), commit)
	assert.Equal(t, "-m is a message, not an option", gitT(t, p.Dir, "log", "-1", "--format=%B"))
	assert.Equal(t, "a.txt\ndir/new.txt", gitT(t, p.Dir, "ls-files"))

	_, _, err = r.CommitAll(p.Dir, " ")
	requireToolError(t, err, definitions.ValidationError)
	_, _, err = r.CommitAll(t.TempDir(), "x")
	requireToolError(t, err, definitions.ValidationError)
}

// removeFile deletes name under dir.
func removeFile(dir, name string) error {
	return os.Remove(filepath.Join(dir, name))
}

// TestContains: a branch merged into the target, directly or through another, is in it.
func TestContains(t *testing.T) {
	r, dir := newRepo(t)
	a, err := r.PrepareBranch("A", 1, "", nil, worktreeBase(t))
	require.NoError(t, err)
	writeFile(t, a.Dir, "a-new.txt", "A\n")
	_, _, err = r.CommitAll(a.Dir, "A")
	require.NoError(t, err)
	c, err := r.PrepareBranch("C", 1, "", []string{a.Branch}, worktreeBase(t))
	require.NoError(t, err)
	in, err := r.Contains("main", a.Branch)
	require.NoError(t, err)
	assert.False(t, in)
	_, err = r.MergeBranches(dir, []string{c.Branch}, "main")
	require.NoError(t, err)
	in, err = r.Contains("main", a.Branch)
	require.NoError(t, err)
	assert.True(t, in, "A came in through C")
	_, err = r.Contains("main", "--output=x")
	assert.Error(t, err)
}

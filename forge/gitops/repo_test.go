package gitops

import (
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpen(t *testing.T) {
	r, dir := newRepo(t)
	branch, err := r.CurrentBranch()
	require.NoError(t, err)
	assert.Equal(t, "main", branch)
	head, err := r.HeadCommit()
	require.NoError(t, err)
	assert.Equal(t, gitT(t, dir, "rev-parse", "HEAD"), head)

	sub, err := Open(filepath.Join(dir, ".")) // the same repository
	require.NoError(t, err)
	assert.Equal(t, dir, sub.Dir())
}

func TestOpenRefuses(t *testing.T) {
	testenv.Program(t, "git")
	_, dir := newRepo(t)
	for name, path := range map[string]string{
		"not a repository": t.TempDir(),
		"missing":          filepath.Join(t.TempDir(), "nope"),
		"git directory":    filepath.Join(dir, ".git"),
		"a file":           filepath.Join(dir, "a.txt"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Open(path)
			terr := requireToolError(t, err, definitions.ValidationError)
			assert.Contains(t, terr.Message, "is not a git work tree")
		})
	}
}

func TestCurrentBranchDetached(t *testing.T) {
	r, dir := newRepo(t)
	gitT(t, dir, "checkout", "-q", "--detach")
	_, err := r.CurrentBranch()
	requireToolError(t, err, definitions.ValidationError)
}

func TestBranchExists(t *testing.T) {
	r, dir := newRepo(t)
	gitT(t, dir, "tag", "v1")
	assert.True(t, r.BranchExists("main"))
	assert.False(t, r.BranchExists("nope"))
	assert.False(t, r.BranchExists("v1"), "a tag is not a branch")
	assert.False(t, r.BranchExists("-main"))
	assert.False(t, r.BranchExists("@{-1}"))
}

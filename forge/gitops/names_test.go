package gitops

import (
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBranchName(t *testing.T) {
	name, err := BranchName("task-001", 1)
	require.NoError(t, err)
	assert.Equal(t, "forge/task-001/1", name)

	name, err = BranchName("T.2_x", 0)
	require.NoError(t, err)
	assert.Equal(t, "forge/T.2_x/0", name)
}

func TestBranchNameRefusesBadIDs(t *testing.T) {
	for name, id := range map[string]string{
		"parent":       "../x",
		"option":       "-x",
		"space":        "a b",
		"empty":        "",
		"dot dot":      "a..b",
		"slash":        "a/b",
		"leading dot":  ".x",
		"too long":     strings.Repeat("a", 65),
		"newline":      "a\nb",
		"lock suffix":  "x.lock",
		"option value": "--upload-pack=touch",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := BranchName(id, 1)
			requireToolError(t, err, definitions.ValidationError)
		})
	}
	_, err := BranchName("ok", -1)
	requireToolError(t, err, definitions.ValidationError)
}

func TestWorktreePath(t *testing.T) {
	p, err := WorktreePath("/base/dir/", "t1", 2)
	require.NoError(t, err)
	assert.Equal(t, "/base/dir/t1-2", p)

	_, err = WorktreePath("relative", "t1", 2)
	requireToolError(t, err, definitions.ValidationError)
	_, err = WorktreePath("/base", "../t1", 2)
	requireToolError(t, err, definitions.ValidationError)
}

func TestCheckBranchText(t *testing.T) {
	for _, ok := range []string{"main", "forge/t/1", "feature/x.y"} {
		assert.NoError(t, checkBranchText(ok), ok)
	}
	for _, bad := range []string{"", "-x", "--upload-pack=x", "a b", "a\tb", "a\x7fb", strings.Repeat("a", 256)} {
		assert.Error(t, checkBranchText(bad), "%q", bad)
	}
}

package definitions

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRebase checks that Rebase makes the relative paths of a call's params relative to
// its working directory, nested ones too, and leaves absolute and empty ones.
func TestRebase(t *testing.T) {
	cases := []struct {
		name       string
		tool       *Tool
		dir        string
		params     any // a pointer to the tool's params
		want       any
		wantsError string
	}{
		{name: "read", tool: ReadFile, dir: "sub", params: &ReadFileParams{Path: "a.go"}, want: &ReadFileParams{Path: "sub/a.go"}},
		{name: "dot components dropped", tool: ReadFile, dir: "sub", params: &ReadFileParams{Path: "./x//a.go"}, want: &ReadFileParams{Path: "sub/x/a.go"}},
		{name: "dot-dot kept for the walk", tool: ReadFile, dir: "sub", params: &ReadFileParams{Path: "../a.go"}, want: &ReadFileParams{Path: "sub/../a.go"}},
		{name: "absolute left", tool: ReadFile, dir: "sub", params: &ReadFileParams{Path: "/r/a.go"}, want: &ReadFileParams{Path: "/r/a.go"}},
		{name: "empty left", tool: ReadFile, dir: "sub", params: &ReadFileParams{}, want: &ReadFileParams{}},
		{name: "trailing slash kept", tool: ListDir, dir: "sub", params: &ListDirParams{Path: "pkg/"}, want: &ListDirParams{Path: "sub/pkg/"}},
		{name: "default dot is the dir", tool: ListDir, dir: "a/b", params: &ListDirParams{Path: "."}, want: &ListDirParams{Path: "a/b"}},
		{name: "root is no change", tool: ReadFile, dir: ".", params: &ReadFileParams{Path: "a.go"}, want: &ReadFileParams{Path: "a.go"}},
		{name: "no dir is no change", tool: ReadFile, dir: "", params: &ReadFileParams{Path: "a.go"}, want: &ReadFileParams{Path: "a.go"}},
		{name: "move", tool: MoveFile, dir: "sub", params: &MoveFileParams{Source: "a", Destination: "b/c"}, want: &MoveFileParams{Source: "sub/a", Destination: "sub/b/c"}},
		{
			name: "multi edit: edits' paths, an edit without one keeps the top-level's", tool: MultiEdit, dir: "sub",
			params: &MultiEditParams{Path: "a", Edits: []EditOp{{Path: ""}, {Path: "b"}, {Path: "/abs/c"}}},
			want:   &MultiEditParams{Path: "sub/a", Edits: []EditOp{{Path: ""}, {Path: "sub/b"}, {Path: "/abs/c"}}},
		},
		{name: "shell workdir left empty is the dir", tool: RunShell, dir: "web", params: &RunShellParams{Command: "ls"}, want: &RunShellParams{Command: "ls", Cwd: "web"}},
		{name: "shell workdir relative to it", tool: RunShell, dir: "web", params: &RunShellParams{Command: "ls", Cwd: "app"}, want: &RunShellParams{Command: "ls", Cwd: "web/app"}},
		{name: "tests workdir", tool: RunTests, dir: "pkg", params: &RunTestsParams{Path: "."}, want: &RunTestsParams{Path: "pkg"}},
		{
			name: "todo location, export default left", tool: TodoWrite, dir: "src",
			params: &TodoWriteParams{Action: "create", Location: &Location{Path: "main.go", Line: 3}, Filter: &TaskFilter{Path: "x"}},
			want:   &TodoWriteParams{Action: "create", Location: &Location{Path: "src/main.go", Line: 3}, Filter: &TaskFilter{Path: "x"}},
		},
		{name: "another tool's params", tool: ReadFile, dir: "sub", params: &WriteFileParams{Path: "a"}, want: &WriteFileParams{Path: "a"}},
		{name: "a value, not a pointer", tool: ReadFile, dir: "sub", params: ReadFileParams{Path: "a"}, want: ReadFileParams{Path: "a"}},
		{
			name: "paths inside a patch cannot be rebased", tool: ApplyPatch, dir: "sub",
			params:     &ApplyPatchParams{Input: "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch"},
			want:       &ApplyPatchParams{Input: "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch"},
			wantsError: "apply_patch cannot take a working directory (meta.cwd)",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.tool.Rebase(c.params, c.dir)
			if c.wantsError != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.wantsError)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, c.want, c.params)
		})
	}
}

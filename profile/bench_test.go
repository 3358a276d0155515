package profile

import (
	"testing"

	"github.com/jido-run/jido/tools/definitions"
)

// BenchmarkMapping is what a profile adds to a call: mapping the arguments to the
// canonical tool's and the result back (the call itself is BenchmarkProfileRead's, in
// package manager). The target is at most 2 µs per call.
func BenchmarkMapping(b *testing.B) {
	read := &definitions.ReadFileResult{Path: "f.txt", Content: "     1\tpackage main\n", Encoding: "utf-8", Size: 13, TotalLines: 1, StartLine: 1, EndLine: 1}
	edit := &definitions.EditFileResult{FileDiff: definitions.FileDiff{Path: "f.go", Diff: "--- f.go\n+++ f.go\n@@ -1 +1 @@\n-a\n+b\n"}, Replacements: 1}
	for _, tc := range []struct {
		name    string
		profile *Profile
		tool    string
		args    map[string]any
		result  any
	}{
		{"claude/Read", Claude, "Read", map[string]any{"file_path": "f.txt", "offset": 1.0, "limit": 100.0}, read},
		{"claude/Edit", Claude, "Edit", map[string]any{"file_path": "f.go", "old_string": "a", "new_string": "b"}, edit},
		{"forj/read_file", Forj, "read_file", map[string]any{"path": "f.txt", "max_bytes": 65536.0, "start_line": 1.0, "end_line": 1.0}, read},
		{"forge/read", Forge, "read", map[string]any{"path": "f.txt", "range": []any{1.0, 1.0}}, read},
		{"forge/edit", Forge, "edit", map[string]any{"path": "f.go", "oldStr": "a", "newStr": "b"}, edit},
		{"emacs/file_read", Emacs, "file_read", map[string]any{"file_path": "f.txt"}, read},
	} {
		b.Run(tc.name, func(b *testing.B) {
			t, ok := tc.profile.Lookup(tc.tool)
			if !ok {
				b.Fatal(tc.tool)
			}
			b.ReportAllocs()
			for b.Loop() {
				c, terr := tc.profile.Map(t, tc.args)
				if terr != nil {
					b.Fatal(terr)
				}
				c.Result = tc.result
				_ = tc.profile.Result(c)
			}
		})
	}
}

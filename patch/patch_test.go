package patch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParse reads a patch with every kind of operation.
func TestParse(t *testing.T) {
	files, err := Parse(`*** Begin Patch
*** Add File: docs/new.md
+# New
+
*** Update File: src/app.py
*** Move to: src/main.py
@@ def main():
 a = 1
-b = 2
+b = 3

@@
-old
+new
*** End of File
*** Delete File: old.txt
*** End Patch
`)
	require.NoError(t, err)
	require.Len(t, files, 3)
	assert.Equal(t, File{Kind: Add, Path: "docs/new.md", Lines: []string{"# New", ""}}, files[0])
	assert.Equal(t, File{Kind: Update, Path: "src/app.py", MoveTo: "src/main.py", Hunks: []Hunk{
		{Anchor: "def main():", Old: []string{"a = 1", "b = 2", ""}, New: []string{"a = 1", "b = 3", ""}},
		{Old: []string{"old"}, New: []string{"new"}, AtEnd: true},
	}}, files[1])
	assert.Equal(t, File{Kind: Delete, Path: "old.txt"}, files[2])
	assert.Equal(t, []string{"docs/new.md", "src/app.py", "src/main.py", "old.txt"}, Paths("*** Add File: docs/new.md\n*** Update File: src/app.py\n*** Move to: src/main.py\n*** Delete File: old.txt"))
}

// TestParseRefusesMalformedPatches names what is wrong and where.
func TestParseRefusesMalformedPatches(t *testing.T) {
	for name, c := range map[string]struct{ patch, msg string }{
		"no envelope":     {"*** Add File: a\n+x\n", "starts with"},
		"no end":          {"*** Begin Patch\n*** Add File: a\n+x\n", "ends with"},
		"empty":           {"*** Begin Patch\n*** End Patch", "changes no file"},
		"add without +":   {"*** Begin Patch\n*** Add File: a\nx\n*** End Patch", "line 3: a line of an added file starts with +"},
		"unknown op":      {"*** Begin Patch\n*** Rename File: a\n*** End Patch", "line 2: expected"},
		"no path":         {"*** Begin Patch\n*** Delete File: \n*** End Patch", "names no path"},
		"bad hunk line":   {"*** Begin Patch\n*** Update File: a\n@@\n x\n?y\n*** End Patch", "line 5: a hunk line starts with"},
		"no hunk":         {"*** Begin Patch\n*** Update File: a\n*** End Patch", "a has no hunk"},
		"after eof":       {"*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\n+y\n*** End Patch", "after"},
		"eof before hunk": {"*** Begin Patch\n*** Update File: a\n*** End of File\n*** End Patch", "before any hunk"},
	} {
		_, err := Parse(c.patch)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.msg, name)
	}
}

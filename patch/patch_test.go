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
*** Update File: src/moved.py
*** Move to: src/renamed.py
*** End Patch
`)
	require.NoError(t, err)
	require.Len(t, files, 4)
	assert.Equal(t, File{Kind: Add, Path: "docs/new.md", Lines: []string{"# New", ""}}, files[0])
	assert.Equal(t, File{Kind: Update, Path: "src/app.py", MoveTo: "src/main.py", Hunks: []Hunk{
		{Anchors: []string{"def main():"}, Old: []string{"a = 1", "b = 2", ""}, New: []string{"a = 1", "b = 3", ""}},
		{Old: []string{"old"}, New: []string{"new"}, AtEnd: true},
	}}, files[1])
	assert.Equal(t, File{Kind: Delete, Path: "old.txt"}, files[2])
	assert.Equal(t, File{Kind: Update, Path: "src/moved.py", MoveTo: "src/renamed.py"}, files[3], "a move without hunks")
	assert.Equal(t, []string{"docs/new.md", "src/app.py", "src/main.py", "old.txt"}, Paths("*** Add File: docs/new.md\n*** Update File: src/app.py\n*** Move to: src/main.py\n*** Delete File: old.txt"))
}

// TestParseHunks reads the shapes a hunk takes: anchors (several narrow in turn), a first
// hunk without its @@ line, a pure addition, an empty context line, End of File.
func TestParseHunks(t *testing.T) {
	for name, c := range map[string]struct {
		body string
		want []Hunk
	}{
		"no @@ line": {"-a\n+b", []Hunk{{Old: []string{"a"}, New: []string{"b"}}}},
		"bare @@":    {"@@\n-a\n+b", []Hunk{{Old: []string{"a"}, New: []string{"b"}}}},
		"anchor":     {"@@ func main() {\n x\n-a\n+b", []Hunk{{Anchors: []string{"func main() {"}, Old: []string{"x", "a"}, New: []string{"x", "b"}}}},
		"anchors in a row narrow in turn": {"@@ class A\n@@\n@@ \tdef f():\n-a\n+b",
			[]Hunk{{Anchors: []string{"class A", "def f():"}, Old: []string{"a"}, New: []string{"b"}}}},
		"two hunks, the second anchored": {"-a\n+b\n@@ def g():\n-c\n+d",
			[]Hunk{{Old: []string{"a"}, New: []string{"b"}}, {Anchors: []string{"def g():"}, Old: []string{"c"}, New: []string{"d"}}}},
		"pure addition":   {"@@ import os\n+import sys", []Hunk{{Anchors: []string{"import os"}, New: []string{"import sys"}}}},
		"pure deletion":   {"@@\n-gone", []Hunk{{Old: []string{"gone"}}}},
		"whitespace line": {"@@\n   \n-a\n+b", []Hunk{{Old: []string{"  ", "a"}, New: []string{"  ", "b"}}}},
		"end of file then a hunk": {"@@\n-a\n+b\n*** End of File\n\n@@\n-c\n+d",
			[]Hunk{{Old: []string{"a"}, New: []string{"b"}, AtEnd: true}, {Old: []string{"c"}, New: []string{"d"}}}},
		"blank lines before the first hunk": {"\n\n@@\n-a\n+b", []Hunk{{Old: []string{"a"}, New: []string{"b"}}}},
	} {
		files, err := Parse("*** Begin Patch\n*** Update File: f\n" + c.body + "\n*** End Patch")
		require.NoError(t, err, name)
		require.Len(t, files, 1, name)
		assert.Equal(t, c.want, files[0].Hunks, name)
	}
}

// TestParseForgives accepts exactly what Codex's parser forgives beyond the grammar: a
// heredoc around the patch, an empty line inside a hunk, blank lines and blanks around the
// envelope, CRLF.
func TestParseForgives(t *testing.T) {
	want := []File{{Kind: Update, Path: "a.py", Hunks: []Hunk{{Old: []string{"x", "", "y"}, New: []string{"x", "", "z"}}}}}
	body := "*** Begin Patch\n*** Update File: a.py\n@@\n x\n\n-y\n+z\n*** End Patch"
	for name, text := range map[string]string{
		"plain":                      body,
		"heredoc":                    "<<EOF\n" + body + "\nEOF\n",
		"quoted heredoc":             "<<'EOF'\n" + body + "\nEOF",
		"double-quoted heredoc":      "<<\"EOF\"\n" + body + "\nEOF\n",
		"blank lines around":         "\n\n" + body + "\n\n\n",
		"blanks around the envelope": "  *** Begin Patch \n*** Update File: a.py\n@@\n x\n\n-y\n+z\n\t*** End Patch  \n",
		"CRLF":                       "*** Begin Patch\r\n*** Update File: a.py\r\n@@\r\n x\r\n\r\n-y\r\n+z\r\n*** End Patch\r\n",
	} {
		files, err := Parse(text)
		require.NoError(t, err, name)
		assert.Equal(t, want, files, name)
	}
}

// TestParseRefusesMalformedPatches names what is wrong, where, and what was expected.
func TestParseRefusesMalformedPatches(t *testing.T) {
	for name, c := range map[string]struct{ patch, msg string }{
		"nothing":                           {"\n  \n", "the patch is empty"},
		"no begin":                          {"*** Add File: a\n+x\n*** End Patch", `patch line 1: expected "*** Begin Patch"`},
		"no end":                            {"*** Begin Patch\n*** Add File: a\n+x\n", `patch line 3: expected "*** End Patch"`},
		"text after the end":                {"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nDone.", `patch line 5: expected "*** End Patch"`},
		"begin alone":                       {"*** Begin Patch", `patch line 1: expected "*** End Patch"`},
		"unclosed heredoc":                  {"<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch", "patch line 5: expected EOF closing the heredoc of line 1"},
		"other heredoc word":                {"<<'PATCH'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nPATCH", `patch line 1: expected "*** Begin Patch"`},
		"line numbers count leading blanks": {"\n\n*** Begin Patch\n*** Add File: a\nx\n*** End Patch", "patch line 5: expected a line of the added file"},
		"empty":                             {"*** Begin Patch\n*** End Patch", "patch line 2: the patch changes no file"},
		"add without +":                     {"*** Begin Patch\n*** Add File: a\nx\n*** End Patch", `patch line 3: expected a line of the added file (starting with +) or the next file operation, got "x"`},
		"blank line in added file":          {"*** Begin Patch\n*** Add File: a\n+x\n\n*** Delete File: b\n*** End Patch", "patch line 4: expected a line of the added file"},
		"unknown op":                        {"*** Begin Patch\n*** Rename File: a\n*** End Patch", `patch line 2: expected "*** Add File: ", "*** Delete File: " or "*** Update File: ", got "*** Rename File: a"`},
		"lines after delete":                {"*** Begin Patch\n*** Delete File: a\n-x\n*** End Patch", `patch line 3: expected "*** Add File: "`},
		"no path":                           {"*** Begin Patch\n*** Delete File: \n*** End Patch", `patch line 2: expected a path after "*** Delete File:"`},
		"no move path":                      {"*** Begin Patch\n*** Update File: a\n*** Move to: \n@@\n-x\n+y\n*** End Patch", `patch line 3: expected "*** Move to: " followed by the file's new path`},
		"move onto itself":                  {"*** Begin Patch\n*** Update File: a\n*** Move to: ./a\n@@\n-x\n+y\n*** End Patch", "patch line 3: \"*** Move to: \" moves a onto itself"},
		"move after hunks":                  {"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Move to: b\n*** End Patch", `patch line 6: "*** Move to:" comes right after "*** Update File:"`},
		"bad hunk line":                     {"*** Begin Patch\n*** Update File: a\n@@\n x\n?y\n*** End Patch", `patch line 5: expected a hunk line starting with ' ' (context), '-' (removed) or '+' (added)`},
		"hunk line without prefix":          {"*** Begin Patch\n*** Update File: a\n@@\n-x\ny\n*** End Patch", `got "y"`},
		"tab-indented hunk line":            {"*** Begin Patch\n*** Update File: a\n@@\n-x\n\ty\n*** End Patch", `patch line 5: expected a hunk line`},
		"no hunk":                           {"*** Begin Patch\n*** Update File: a\n*** End Patch", "patch line 2: a has no hunk"},
		"empty hunk":                        {"*** Begin Patch\n*** Update File: a\n@@ def f():\n*** End Patch", "patch line 3: the hunk has no line"},
		"empty hunk before another": {"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n@@\n*** Update File: b\n@@\n-x\n+y\n*** End Patch",
			"patch line 6: the hunk has no line"},
		"context only":       {"*** Begin Patch\n*** Update File: a\n@@\n x\n y\n*** End Patch", "patch line 3: the hunk changes nothing"},
		"same line back":     {"*** Begin Patch\n*** Update File: a\n-x\n+x\n*** End Patch", "patch line 3: the hunk changes nothing"},
		"unified range":      {"*** Begin Patch\n*** Update File: a\n@@ -1,2 +1,2 @@\n-x\n+y\n*** End Patch", "patch line 3: \"@@ -1,2 +1,2 @@\" is a unified diff's line range"},
		"@@ glued":           {"*** Begin Patch\n*** Update File: a\n@@def f():\n-x\n+y\n*** End Patch", `patch line 3: expected "@@" alone or followed by a space`},
		"after eof":          {"*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\n+y\n*** End Patch", `patch line 6: expected "@@" (a new hunk) or the next file operation after "*** End of File"`},
		"eof twice":          {"*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\n*** End of File\n*** End Patch", "patch line 6: a second"},
		"eof before hunk":    {"*** Begin Patch\n*** Update File: a\n*** End of File\n*** End Patch", `patch line 3: "*** End of File" ends a hunk`},
		"eof right after @@": {"*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch", `patch line 4: "*** End of File" ends a hunk`},
		"eof in added file":  {"*** Begin Patch\n*** Add File: a\n+x\n*** End of File\n*** End Patch", "patch line 4: expected a line of the added file"},
		"end patch twice":    {"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n*** End Patch", "patch line 4: expected a line of the added file"},
		"two operations on a path": {"*** Begin Patch\n*** Add File: a\n+x\n*** Update File: ./a\n@@\n-x\n+y\n*** End Patch",
			"patch line 4: ./a is already named by the operation at line 2"},
		"delete and add": {"*** Begin Patch\n*** Delete File: d/a\n*** Add File: d/../d/a\n+x\n*** End Patch", "patch line 3: d/../d/a is already named by the operation at line 2"},
		"move onto another operation's path": {"*** Begin Patch\n*** Delete File: b\n*** Update File: a\n*** Move to: b\n*** End Patch",
			"patch line 4: b is already named by the operation at line 2"},
		"operation on a move's destination": {"*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Add File: b\n+x\n*** End Patch",
			"patch line 4: b is already named by the operation at line 3"},
		"two moves onto one path": {"*** Begin Patch\n*** Update File: a\n*** Move to: c\n*** Update File: b\n*** Move to: c\n*** End Patch",
			"patch line 5: c is already named by the operation at line 3"},
	} {
		_, err := Parse(c.patch)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.msg, name)
	}
}

// FuzzParse checks that no input makes the parser panic, and that what it accepts is well
// formed: every file has a path, every hunk changes something.
func FuzzParse(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a\n@@ x\n@@ y\n z\n-a\n+b\n*** End of File\n*** End Patch")
	f.Add("<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: b\n*** End Patch\nEOF")
	f.Fuzz(func(t *testing.T, text string) {
		files, err := Parse(text)
		if err != nil {
			return
		}
		for _, file := range files {
			require.NotEmpty(t, file.Path)
			for _, h := range file.Hunks {
				require.NotEqual(t, h.Old, h.New)
			}
		}
	})
}

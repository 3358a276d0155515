package usertools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const goodTool = `-- counts lines
return jido.tool{
  name = "count_lines",
  description = "Counts the lines of a file.",
  params = {
    type = "object",
    properties = {
      path = {type = "string", description = "the file"},
      blank = {type = "boolean", default = false},
      mode = {type = "string", enum = {"all", "code"}},
      tags = {type = "array", items = {type = "string"}},
    },
    required = {"path"},
  },
  run = function(args) return {lines = 0} end,
}
`

func TestDeclareReadsTheDeclaration(t *testing.T) {
	def, err := Declare(t.Context(), ".jido/tools/count.lua", goodTool)
	require.NoError(t, err)
	assert.Equal(t, "count_lines", def.Name)
	assert.Equal(t, "Counts the lines of a file.", def.Description)
	assert.True(t, def.ReadOnly)
	assert.False(t, def.Mutating)
	assert.Equal(t, []string{"path"}, def.Schema().Required)
	filled, terr := def.Check(map[string]any{"path": "a.go"})
	require.Nil(t, terr)
	assert.Equal(t, map[string]any{"path": "a.go", "blank": false}, filled, "defaults apply")
	_, terr = def.Check(map[string]any{"pth": "a.go"})
	require.NotNil(t, terr)
	assert.Contains(t, terr.Message, "did you mean `path`")
	_, terr = def.Check(map[string]any{"path": "a", "mode": "some"})
	require.NotNil(t, terr, "enums are checked")

	def, err = Declare(t.Context(), "x.lua", `return jido.tool{name="wipe", description="d", destructive=true, run=function() end}`)
	require.NoError(t, err)
	assert.True(t, def.Mutating && def.Destructive && !def.ReadOnly, "destructive implies mutating")
	assert.Empty(t, def.Schema().Properties, "no params: no arguments")
}

func TestDeclareErrorsNameFileAndLine(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"no return", `jido.tool{name="a", description="d", run=function() end}`, "x.lua: the file must return the jido.tool{...} it declares"},
		{"returns something else", `jido.tool{name="a", description="d", run=function() end} return 1`, "must return the jido.tool{...} it declares"},
		{"nothing declared", `return {}`, "x.lua: the file must return jido.tool{...}"},
		{"syntax", "return jido.tool{\nname = }", "x.lua line:2"},
		{"bad name", "\n\nreturn jido.tool{name=\"Count-Lines\", description=\"d\", run=function() end}", `x.lua:3: jido.tool: name "Count-Lines" must be snake_case`},
		{"no description", `return jido.tool{name="a", run=function() end}`, "x.lua:1: jido.tool: description is missing"},
		{"no run", `return jido.tool{name="a", description="d"}`, "run is missing"},
		{"run not a function", `return jido.tool{name="a", description="d", run=1}`, "field run must be a function, not a number"},
		{"unknown field", `return jido.tool{name="a", description="d", run=function() end, mutates=true}`, "unknown field mutates; a tool has description, destructive, idempotent"},
		{"bad flag type", `return jido.tool{name="a", description="d", run=function() end, mutating="yes"}`, "field mutating must be a boolean, not a string"},
		{"two tools", `jido.tool{name="a", description="d", run=function() end} return jido.tool{name="b", description="d", run=function() end}`, "a file declares one tool"},
		{"params not object", `return jido.tool{name="a", description="d", run=function() end, params={type="string"}}`, `params: params: the top level must be type = "object"`},
		{"bad type", `return jido.tool{name="a", description="d", run=function() end, params={properties={p={type="strng"}}}}`, "params.properties.p: type must be one of string, integer"},
		{"bad keyword", `return jido.tool{name="a", description="d", run=function() end, params={properties={p={type="string", pattern="x"}}}}`, `unsupported keyword "pattern"`},
		{"required unknown", `return jido.tool{name="a", description="d", run=function() end, params={properties={p={type="string"}}, required={"q"}}}`, "params.required names q, which is not a property"},
		{"bad default", `return jido.tool{name="a", description="d", run=function() end, params={properties={n={type="integer", default="x"}}}}`, "x.lua:1: jido.tool: params: "},
		{"no host at load", `local f = io.open("/etc/passwd") return jido.tool{name="a", description="d", run=function() end}`, "x.lua"},
		{"no tools at load", `jido.read_file{path="a"} return jido.tool{name="a", description="d", run=function() end}`, "x.lua:1:"},
		{"endless top level", `while true do end`, "x.lua"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Declare(t.Context(), "x.lua", tc.src)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "x.lua"), "the error starts with the file: %v", err)
		})
	}
}

func TestLoadSkipsBadFilesAndClashes(t *testing.T) {
	tool := func(name string) string {
		return `return jido.tool{name="` + name + `", description="d", run=function() return {} end}`
	}
	user := fstest.MapFS{"a.lua": {Data: []byte(tool("alpha"))}, "notes.txt": {Data: []byte("not a tool")}}
	project := fstest.MapFS{
		"a.lua":    {Data: []byte(tool("alpha"))},
		"b.lua":    {Data: []byte(tool("read_file"))},
		"c.lua":    {Data: []byte(tool("gamma"))},
		"d.lua":    {Data: []byte("return jido.tool{")},
		"huge.lua": {Data: []byte(strings.Repeat("-", MaxFileSize+1))},
	}
	missing := Dirs([]string{filepath.Join(t.TempDir(), "no-such-dir")})[0]
	set := Load(t.Context(), []Source{{Label: "none"}, missing, {Label: "~/.config/jido/tools", FS: user}, {Label: ".jido/tools", FS: project}}, func(n string) bool { return n == "read_file" })
	var names []string
	for _, tl := range set.Tools() {
		names = append(names, tl.Def.Name)
	}
	assert.Equal(t, []string{"alpha", "gamma"}, names)
	alpha, ok := set.Lookup("alpha")
	require.True(t, ok)
	assert.Equal(t, "~/.config/jido/tools/a.lua", alpha.File, "the first source wins")
	var errs []string
	for _, e := range set.Errors {
		errs = append(errs, e.Error())
	}
	require.Len(t, errs, 4, "%q", errs)
	assert.Contains(t, errs[0], `.jido/tools/a.lua: tool "alpha" is declared by ~/.config/jido/tools/a.lua already`)
	assert.Contains(t, errs[1], `.jido/tools/b.lua: tool "read_file" has the name of a built-in tool`)
	assert.Contains(t, errs[2], ".jido/tools/d.lua")
	assert.Contains(t, errs[3], ".jido/tools/huge.lua: not a regular file of at most")
}

func TestRegistryReloadsChangedFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, tool string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(`return jido.tool{name="`+tool+`", description="d", run=function() end}`), 0o644))
	}
	write("a.lua", "alpha")
	r := NewRegistry([]Source{{Label: "tools", FS: os.DirFS(dir)}}, nil, 20*time.Millisecond)
	names := func() []string {
		var out []string
		for _, tl := range r.Current().Tools() {
			out = append(out, tl.Def.Name)
		}
		return out
	}
	assert.Equal(t, []string{"alpha"}, names())
	write("b.lua", "beta")
	assert.Equal(t, []string{"alpha"}, names(), "not looked at again within the period")
	require.Eventually(t, func() bool { return len(names()) == 2 }, 2*time.Second, 5*time.Millisecond, "an added file is loaded")
	write("a.lua", "alpha_two")
	require.Eventually(t, func() bool { n := names(); return len(n) == 2 && n[0] == "alpha_two" }, 2*time.Second, 5*time.Millisecond, "a changed file is reloaded")
	require.NoError(t, os.Remove(filepath.Join(dir, "b.lua")))
	require.Eventually(t, func() bool { return len(names()) == 1 }, 2*time.Second, 5*time.Millisecond, "a removed file is dropped")
	var nilRegistry *Registry
	assert.Empty(t, nilRegistry.Current().Tools(), "no registry, no tools")
}

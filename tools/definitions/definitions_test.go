package definitions

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCatalogueIsWellFormed(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, tool := range All() {
		t.Run(tool.Name, func(t *testing.T) {
			assert.Regexp(t, snake, tool.Name)
			assert.False(t, seen[tool.Name], "duplicate name")
			seen[tool.Name] = true
			assert.NotEmpty(t, tool.Description)
			assert.Equal(t, "object", tool.Schema().Type)
			assert.False(t, tool.ReadOnly && (tool.Mutating || tool.Destructive), "read-only tools cannot mutate")
			assert.True(t, tool.ReadOnly || tool.Mutating, "a tool either reads or mutates")
			for name, prop := range tool.Schema().Properties {
				assert.NotEmpty(t, prop.Description, "property %s has no description", name)
				assert.Regexp(t, snake, name)
			}
			got, ok := Lookup(tool.Name)
			require.True(t, ok)
			assert.Same(t, tool, got)
		})
	}
	assert.Equal(t, len(All()), len(Names()))
}

// decodeReadFile is a shorthand for the cases below.
func decodeReadFile(args map[string]any) (ReadFileParams, *ToolError) {
	return Decode[ReadFileParams](ReadFile, args)
}

func TestDecodeAppliesDefaults(t *testing.T) {
	p, terr := decodeReadFile(map[string]any{"path": "a.go"})
	require.Nil(t, terr)
	assert.Equal(t, ReadFileParams{Path: "a.go", Limit: 2000, MaxBytes: 100000, LineNumbers: true}, p)

	p, terr = decodeReadFile(map[string]any{"path": "a.go", "line_numbers": false, "limit": float64(10)})
	require.Nil(t, terr)
	assert.False(t, p.LineNumbers, "an explicit false beats the default true")
	assert.Equal(t, 10, p.Limit)
}

func TestDecodeRejectsBadArguments(t *testing.T) {
	cases := []struct {
		name       string
		tool       *Tool
		args       map[string]any
		field      string
		message    string
		didYouMean string
	}{
		{"missing required", ReadFile, map[string]any{}, "path", "missing required argument `path`", ""},
		{"unknown with typo", ReadFile, map[string]any{"path": "a", "limt": 3.0}, "limt", "unknown argument `limt`", "limit"},
		{"unknown case", ReadFile, map[string]any{"Path": "a"}, "Path", "unknown argument `Path`", "path"},
		{"unknown far", ReadFile, map[string]any{"path": "a", "zzzzzzzz": 1.0}, "zzzzzzzz", "unknown argument", ""},
		{"string for integer", ReadFile, map[string]any{"path": "a", "limit": "ten"}, "limit", "must be an integer, got a string", ""},
		{"fraction for integer", ReadFile, map[string]any{"path": "a", "limit": 2.5}, "limit", "must be an integer, got a number", ""},
		{"below minimum", ReadFile, map[string]any{"path": "a", "limit": 0.0}, "limit", "must be at least 1", ""},
		{"below minimum as int64 (from Lua)", ReadFile, map[string]any{"path": "a", "limit": int64(-1)}, "limit", "must be at least 1", ""},
		{"below minimum as int", Glob, map[string]any{"pattern": "*", "max_results": 0}, "max_results", "must be at least 1", ""},
		{"number for string", ReadFile, map[string]any{"path": 7.0}, "path", "must be a string, got an integer", ""},
		{"null for required", WriteFile, map[string]any{"path": "a", "content": nil}, "content", "missing required argument `content`", ""},
		{"object for bool", EditFile, map[string]any{"path": "a", "old_string": "x", "new_string": "y", "replace_all": map[string]any{}}, "replace_all", "must be a boolean", ""},
		{"string for array", MultiEdit, map[string]any{"path": "a", "edits": "x"}, "edits", "must be an array", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, terr := c.tool.Check(c.args)
			require.NotNil(t, terr)
			assert.Equal(t, ValidationError, terr.Type)
			assert.Contains(t, terr.Message, c.message)
			assert.Equal(t, c.field, terr.Details["field"])
			assert.NotEmpty(t, terr.Recovery, "every error says how to recover")
			if c.didYouMean != "" {
				assert.Equal(t, c.didYouMean, terr.Details["did_you_mean"])
			} else {
				assert.NotContains(t, terr.Details, "did_you_mean")
			}
		})
	}
}

func TestDecodeChecksNestedItems(t *testing.T) {
	_, terr := Decode[MultiEditParams](MultiEdit, map[string]any{"path": "a", "edits": []any{map[string]any{"old_string": 1.0}}})
	require.NotNil(t, terr)
	assert.Contains(t, terr.Message, "old_string")

	_, terr = Decode[MultiEditParams](MultiEdit, map[string]any{"path": "a", "edits": []any{map[string]any{"old_string": "a", "new_string": "b", "olds": 1.0}}})
	require.NotNil(t, terr)
	assert.Contains(t, terr.Message, "olds")

	p, terr := Decode[MultiEditParams](MultiEdit, map[string]any{"path": "a", "edits": []any{map[string]any{"old_string": "a", "new_string": ""}}})
	require.Nil(t, terr)
	assert.Equal(t, []EditOp{{OldString: new("a"), NewString: new("")}}, p.Edits, "an empty new_string is present, not missing")
	assert.True(t, p.StopOnError, "all or nothing by default")
}

func TestCheckTreatsNullAsAbsent(t *testing.T) {
	cases := []struct {
		name string
		tool *Tool
		args map[string]any
		want map[string]any
	}{
		{"optional scalar takes its default", ReadFile,
			map[string]any{"path": "a", "limit": nil, "offset": nil},
			map[string]any{"path": "a", "limit": 2000.0, "max_bytes": 100000.0, "line_numbers": true}},
		{"every optional argument null, as strict mode sends them", RunShell,
			map[string]any{"command": "ls", "cmd": nil, "cwd": nil, "env": nil, "stdin": nil, "timeout": nil,
				"background": nil, "dry_run": nil, "max_output": nil},
			map[string]any{"command": "ls", "cwd": ".", "timeout": 120.0, "max_output": 30000.0}},
		{"optional pointer", Search,
			map[string]any{"query": "x", "case_sensitive": nil},
			map[string]any{"query": "x", "path": ".", "output_mode": "content", "max_results": 200.0, "sort_by": "path"}},
		{"nested list items", MultiEdit,
			map[string]any{"path": "a", "edits": []any{
				map[string]any{"old_string": "x", "new_string": "y", "path": nil, "replace_all": nil, "start_line": nil,
					"end_line": nil, "new_content": nil, "expected": nil},
				map[string]any{"old_string": nil, "new_string": nil, "start_line": 1.0, "end_line": 2.0, "new_content": "z"},
			}},
			map[string]any{"path": "a", "stop_on_error": true, "edits": []any{
				map[string]any{"old_string": "x", "new_string": "y"},
				map[string]any{"start_line": 1.0, "end_line": 2.0, "new_content": "z"},
			}}},
		{"no arguments at all", PlanDiff, map[string]any{}, map[string]any{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, err := json.Marshal(c.args)
			require.NoError(t, err)
			got, terr := c.tool.Check(c.args)
			require.Nil(t, terr)
			assert.Equal(t, c.want, got)
			after, err := json.Marshal(c.args)
			require.NoError(t, err)
			assert.JSONEq(t, string(before), string(after), "the caller's arguments are not modified")
		})
	}

	p, terr := Decode[MultiEditParams](MultiEdit, map[string]any{"edits": []any{map[string]any{"old_string": "x", "new_string": "y", "expected": nil}}, "stop_on_error": nil})
	require.Nil(t, terr)
	assert.Equal(t, MultiEditParams{Edits: []EditOp{{OldString: new("x"), NewString: new("y")}}, StopOnError: true}, p)
}

func TestCheckRejectsMisplacedNulls(t *testing.T) {
	cases := []struct {
		name    string
		tool    *Tool
		args    map[string]any
		message string
	}{
		{"null for a required argument", ReadFile, map[string]any{"path": nil}, "missing required argument `path`"},
		{"null for a required list", MultiEdit, map[string]any{"path": "a", "edits": nil}, "missing required argument `edits`"},
		{"null unknown argument", ReadFile, map[string]any{"path": "a", "limt": nil}, "unknown argument `limt`"},
		{"null list element", Glob, map[string]any{"patterns": []any{"*.go", nil}}, "invalid arguments"},
		{"null map value", RunShell, map[string]any{"command": "env", "env": map[string]any{"A": nil}}, "invalid arguments"},
		{"null list item", MultiEdit, map[string]any{"edits": []any{nil}}, "invalid arguments"},
		{"wrong map value", RunShell, map[string]any{"command": "env", "env": map[string]any{"A": 1.0}}, "invalid arguments"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, terr := c.tool.Check(c.args)
			require.NotNil(t, terr)
			assert.Equal(t, ValidationError, terr.Type)
			assert.Contains(t, terr.Message, c.message)
			assert.NotEmpty(t, terr.Recovery)
		})
	}
}

func TestOptionalArgumentsAreNotNullable(t *testing.T) {
	for _, tool := range All() {
		for name, prop := range tool.Schema().Properties {
			assert.NotContains(t, prop.Types, "null", "%s.%s", tool.Name, name)
			if prop.Items != nil {
				for inner, p := range prop.Items.Properties {
					assert.NotContains(t, p.Types, "null", "%s.%s.%s", tool.Name, name, inner)
					assert.NotEmpty(t, p.Type, "%s.%s.%s", tool.Name, name, inner)
				}
			}
		}
	}
}

func TestUnknownToolSuggestsNearest(t *testing.T) {
	e := UnknownTool("read_fiel", Names())
	assert.Equal(t, ValidationError, e.Type)
	assert.Equal(t, "read_file", e.Details["did_you_mean"])
	e = UnknownTool("launch_missiles", Names())
	assert.NotContains(t, e.Details, "did_you_mean")
	assert.Contains(t, e.Recovery[0], "read_file")
}

func TestErrorFromValueRoundTrip(t *testing.T) {
	orig := NewError(ConflictError, "stale").With("path", "a.go").Hint("read again")
	raw, err := json.Marshal(orig)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	got, ok := ErrorFromValue(v)
	require.True(t, ok)
	assert.Equal(t, orig, got)
	got, ok = ErrorFromValue(orig)
	require.True(t, ok, "a *ToolError as is")
	assert.Same(t, orig, got)

	for _, bad := range []any{nil, "x", (*ToolError)(nil), map[string]any{"type": "x"}, map[string]any{"message": "m"}} {
		_, ok := ErrorFromValue(bad)
		assert.False(t, ok, "%v", bad)
	}
}

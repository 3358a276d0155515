package export

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// formats are the exporters under test, by the name of their golden file.
var formats = map[string]func([]*definitions.Tool) any{
	"jsonschema": func(ts []*definitions.Tool) any { return JSONSchema(ts) },
	"openai":     func(ts []*definitions.Tool) any { return OpenAI(ts) },
	"gemini":     func(ts []*definitions.Tool) any { return Gemini(ts) },
	"anthropic":  func(ts []*definitions.Tool) any { return Anthropic(ts) },
	"mcp":        func(ts []*definitions.Tool) any { return MCP(ts) },
}

// render is the JSON text of v, indented so that golden diffs are readable.
func render(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(v))
	return b.Bytes()
}

// decode is the exported JSON of v as plain values, as a provider reads it.
func decode(t *testing.T, v any) any {
	t.Helper()
	var out any
	require.NoError(t, json.Unmarshal(render(t, v), &out))
	return out
}

func TestGolden(t *testing.T) {
	for name, export := range formats {
		t.Run(name, func(t *testing.T) {
			got := render(t, export(definitions.All()))
			golden := filepath.Join("testdata", name+".json")
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./tools/export -update to create it")
			assert.Equal(t, string(want), string(got), "run go test ./tools/export -update if the change is intended")
		})
	}
}

func TestExportersKeepOrderAndNames(t *testing.T) {
	tools := []*definitions.Tool{definitions.WriteFile, definitions.ReadFile} // not sorted: the caller's order
	want := []any{"write_file", "read_file"}
	names := map[string]func(any) []any{
		"jsonschema": func(v any) []any { return pluck(v, "name") },
		"openai":     func(v any) []any { return pluck(pluck(v, "function"), "name") },
		"gemini":     func(v any) []any { return pluck(pluck(v, "functionDeclarations")[0], "name") },
		"anthropic":  func(v any) []any { return pluck(v, "name") },
		"mcp":        func(v any) []any { return pluck(v, "name") },
	}
	for name, export := range formats {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, want, names[name](decode(t, export(tools))))
			assert.Equal(t, []any{}, decode(t, export(nil)), "no tools, an empty list")
		})
	}
}

// pluck returns field key of every object of the list v (or of v itself, if an object).
func pluck(v any, key string) []any {
	if m, ok := v.(map[string]any); ok {
		l, _ := m[key].([]any)
		return l
	}
	out := []any{}
	for _, e := range v.([]any) {
		out = append(out, e.(map[string]any)[key])
	}
	return out
}

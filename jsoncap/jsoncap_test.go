package jsoncap

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCapKeepsShape(t *testing.T) {
	matches := make([]any, 5000)
	for i := range matches {
		matches[i] = map[string]any{"path": "src/a.go", "line": i, "text": strings.Repeat("x", 80)}
	}
	big, err := json.Marshal(map[string]any{"output_mode": "content", "matches": matches, "total": 5000, "stdout": strings.Repeat("é", 50_000)})
	require.NoError(t, err)
	out, note := Cap(big, 30_000)
	require.LessOrEqual(t, len(out), 30_000)
	assert.Contains(t, note, "list items left out")
	var v map[string]any
	require.NoError(t, json.Unmarshal(out, &v), "valid JSON")
	assert.Equal(t, "content", v["output_mode"])
	assert.Equal(t, float64(5000), v["total"])
	list := v["matches"].([]any)
	assert.Contains(t, list[len(list)-1], "more items]")
	assert.Equal(t, "src/a.go", list[0].(map[string]any)["path"], "items keep their fields")
	assert.Contains(t, v["stdout"], "chars cut]")
	assert.True(t, strings.HasPrefix(v["stdout"].(string), "éé"))
}

func TestCapLeavesSmallValuesAlone(t *testing.T) {
	in := json.RawMessage(`{"a":[1,2,3],"b":"text"}`)
	out, note := Cap(in, 100)
	assert.Equal(t, string(in), string(out))
	assert.Empty(t, note)
}

func TestCapFallsBackForManyKeys(t *testing.T) {
	m := map[string]any{}
	for i := range 5000 {
		m[strings.Repeat("k", 10)+string(rune('a'+i%26))+strings.Repeat("z", i%50)+string(rune(i))] = i
	}
	big, err := json.Marshal(m)
	require.NoError(t, err)
	out, note := Cap(big, 2000)
	require.LessOrEqual(t, len(out), 2000)
	var v map[string]any
	require.NoError(t, json.Unmarshal(out, &v))
	assert.Equal(t, true, v["truncated"])
	assert.Contains(t, note, "too many keys")
}

func FuzzCap(f *testing.F) {
	f.Add([]byte(`{"a":"`+strings.Repeat("b", 500)+`","c":[1,2,3,4,5,6,7,8,9]}`), 100)
	f.Add([]byte(`[["x","y"],{"k":null}]`), 10)
	f.Add([]byte(`"\u00e9\u00e9\u00e9"`), 4)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		if max < 200 || max > 1<<20 || !json.Valid(data) {
			return
		}
		out, _ := Cap(data, max)
		if !json.Valid(out) {
			t.Fatalf("invalid JSON out of %q", data)
		}
		if len(out) > max {
			t.Fatalf("%d bytes over the budget of %d", len(out), max)
		}
	})
}

func BenchmarkCap(b *testing.B) {
	matches := make([]any, 2000)
	for i := range matches {
		matches[i] = map[string]any{"path": "src/a.go", "line": i, "text": strings.Repeat("x", 80)}
	}
	big, _ := json.Marshal(map[string]any{"matches": matches})
	b.ReportAllocs()
	for b.Loop() {
		Cap(big, 30_000)
	}
}

// TestReshape: a value Cap cut decodes into its Go type again once the count items are
// dropped; strings keep their cut marks; data that is not JSON, and Cap's head-only
// fallback, have no shape to give back.
func TestReshape(t *testing.T) {
	type file struct{ Path string }
	type listing struct {
		Count int
		Files []file
		Note  string
	}
	files := make([]file, 2000)
	for i := range files {
		files[i] = file{Path: strings.Repeat("d/", 20) + "f.go"}
	}
	big, err := json.Marshal(listing{Count: 2000, Files: files, Note: strings.Repeat("n", 40_000)})
	require.NoError(t, err)
	out, _ := Cap(big, 20_000)
	var v listing
	require.Error(t, json.Unmarshal(out, &v), "the count item is no file")
	reshaped, ok := Reshape(out)
	require.True(t, ok)
	require.NoError(t, json.Unmarshal(reshaped, &v))
	assert.Equal(t, 2000, v.Count)
	assert.NotEmpty(t, v.Files)
	assert.Less(t, len(v.Files), 2000)
	assert.Contains(t, v.Note, "chars cut]")

	reshaped, ok = Reshape(json.RawMessage(`["a","…[3 more items]x"]`))
	assert.True(t, ok)
	assert.Equal(t, `["a","…[3 more items]x"]`, string(reshaped), "only Cap's own item")
	_, ok = Reshape(json.RawMessage("not json"))
	assert.False(t, ok)
	keys := map[string]int{}
	for i := range 5000 {
		keys[strings.Repeat("k", 20)+strconv.Itoa(i)] = i
	}
	data, err := json.Marshal(keys)
	require.NoError(t, err)
	head, _ := Cap(data, 1000)
	_, ok = Reshape(head)
	assert.False(t, ok, "the head-only fallback")
}

package worker

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeJSON is what encoding/json and numbers make of data: what parseValue must give.
func decodeJSON(data []byte) (any, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

func TestParseValueAsEncodingJSON(t *testing.T) {
	values := []any{
		nil, true, false, "", "plain", "tab\there\nnew \"q\" \\ / <&> \u2028 é 日本 😀 \x01\x1f",
		"bad utf-8 \xff\xfe", int64(0), int64(-3), 3.5, -1e300, 1e20, float64(1 << 53), math.SmallestNonzeroFloat64,
		[]any{}, map[string]any{}, []any{int64(1), "a", nil, []any{map[string]any{"k": []any{}}}},
		map[string]any{"content": strings.Repeat("0123456789abcde\n", 256), "n": int64(4096), "nested": map[string]any{"x": 1.25, "": "empty key"}},
		struct {
			Path  string `json:"path"`
			Lines []int  `json:"lines,omitempty"`
		}{"a.txt", []int{1, 2}},
	}
	for _, v := range values {
		data, err := json.Marshal(v)
		require.NoError(t, err)
		want, err := decodeJSON(data)
		require.NoError(t, err)
		got, err := parseValue(data)
		require.NoError(t, err, "%s", data)
		assert.Equal(t, want, got, "%s", data)
	}
	for _, text := range []string{`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00\ud83d x"`, `"\ud83d\u0041"`, ` [ 1 , { "a" : null } ] `, `-0`, `1E2`} {
		want, err := decodeJSON([]byte(text))
		require.NoError(t, err, text)
		got, err := parseValue([]byte(text))
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
	for _, bad := range []string{``, `[`, `{"a"}`, `{"a":1,}`, `"abc`, `"\x"`, `"\u12"`, `tru`, `1 2`, `{1:2}`, "\"a\x00\"", `[1,]`, `-`, strings.Repeat("[", 2000)} {
		_, err := parseValue([]byte(bad))
		assert.Error(t, err, bad)
	}
}

// FuzzParseValue: on every text encoding/json accepts, parseValue agrees with it; on
// the others it fails or agrees (it never panics).
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x\n",null,true]}`, `"\ud83d\ude00"`, `[]`, `-1e5`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseValue(data)
		want, werr := decodeJSON(data)
		if werr != nil || err != nil {
			return // what encoding/json refuses the host never sends; depth limits differ
		}
		assert.Equal(t, want, got, "%q", data)
	})
}

func BenchmarkParseValue(b *testing.B) {
	data, _ := json.Marshal(map[string]any{"path": "a.txt", "content": strings.Repeat("     1\t0123456789abcde\n", 256), "total_lines": 256})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			decodeJSON(data)
		}
	})
	b.Run("parseValue", func(b *testing.B) {
		for b.Loop() {
			parseValue(data)
		}
	})
}

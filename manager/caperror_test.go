package manager

import (
	"encoding/json"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsAreCapped: an error a snippet raises or returns is capped like a result, its
// type kept and the cut said, whatever its size or shape.
func TestErrorsAreCapped(t *testing.T) {
	const budget = 64 << 10
	s := testSession(t, Config{Root: t.TempDir(), MaxResultBytes: budget})
	for _, tc := range []struct{ name, src string }{
		{"raised with large details", `error({type = "file-error", message = "big", details = {blob = string.rep("a", 16 * 1024 * 1024)}})`},
		{"raised with a large message", `error({type = "file-error", message = string.rep("m", 4 * 1024 * 1024)})`},
		{"raised with many keys", `local d = {} for i = 1, 100000 do d["k" .. i] = i end error({type = "file-error", message = "keys", details = d})`},
		{"raised with many hints", `local r = {} for i = 1, 100000 do r[i] = "hint " .. i end error({type = "file-error", message = "hints", recovery = r})`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, terr := s.Eval(t.Context(), tc.src)
			require.NotNil(t, terr)
			assert.Equal(t, definitions.FileError, terr.Type)
			data, err := json.Marshal(terr)
			require.NoError(t, err)
			assert.LessOrEqual(t, len(data), budget+200)
			assert.NotEmpty(t, terr.Details["truncated"], "the cut is said")
		})
	}
	_, terr := s.Eval(t.Context(), `error({type = "file-error", message = "small", details = {a = 1}})`)
	require.NotNil(t, terr)
	assert.Nil(t, terr.Details["truncated"], "a small error is left alone")
}

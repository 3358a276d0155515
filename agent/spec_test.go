package agent

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/tools/definitions"
)

func TestSpecs(t *testing.T) {
	specs := Specs(definitions.All())
	require.Len(t, specs, len(definitions.All()))
	for i, tool := range definitions.All() {
		s := specs[i]
		assert.Equal(t, tool.Name, s.Name)
		assert.Equal(t, tool.Description, s.Description)
		assert.Equal(t, "object", s.Parameters["type"], s.Name)
		want, err := json.Marshal(tool.Schema())
		require.NoError(t, err)
		got, err := json.Marshal(s.Parameters)
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got), s.Name)
	}
	read := Specs([]*definitions.Tool{definitions.ReadFile})[0]
	assert.Contains(t, read.Parameters["properties"], "path")
	assert.Contains(t, read.Parameters["required"], "path")
}

func TestNames(t *testing.T) {
	specs := Names(definitions.All())
	full := Specs(definitions.All())
	require.Len(t, specs, len(full))
	for i := range specs {
		want := full[i]
		want.Parameters = nil
		assert.Equal(t, want, specs[i], "the same spec without its schema")
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolsFormats(t *testing.T) {
	cases := []struct {
		args []string
		key  string // a key that only this format's entries have
	}{
		{nil, "read_only"},
		{[]string{"--format", "jsonschema"}, "parameters"},
		{[]string{"--format", "openai"}, "function"},
		{[]string{"--format=gemini"}, "functionDeclarations"},
		{[]string{"--format", "anthropic"}, "input_schema"},
		{[]string{"--format", "mcp"}, "inputSchema"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.args), func(t *testing.T) {
			var out, errb bytes.Buffer
			require.Equal(t, exitOK, run(append([]string{"tools"}, c.args...), nil, &out, &errb), errb.String())
			assert.Empty(t, errb.String())
			var entries []map[string]any
			require.NoError(t, json.Unmarshal(out.Bytes(), &entries), "one JSON array")
			require.NotEmpty(t, entries)
			assert.Contains(t, entries[0], c.key)
			if c.key != "functionDeclarations" {
				assert.Len(t, entries, len(definitions.All()))
			}
		})
	}
}

func TestToolsUsageErrors(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		stderr []string
	}{
		{"unknown format", []string{"--format", "klingon"}, []string{`unknown format "klingon"`, "jsonschema, openai, gemini, anthropic, mcp"}},
		{"empty format", []string{"--format", ""}, []string{`unknown format ""`}},
		{"format case", []string{"--format", "OpenAI"}, []string{`unknown format "OpenAI"`}},
		{"extra argument", []string{"openai"}, []string{"no arguments"}},
		{"unknown flag", []string{"--nope"}, []string{"not defined: -nope", "jsonschema, openai, gemini, anthropic, mcp"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			assert.Equal(t, exitUsage, run(append([]string{"tools"}, c.args...), nil, &out, &errb))
			assert.Empty(t, out.String(), "nothing on stdout")
			for _, s := range c.stderr {
				assert.Contains(t, errb.String(), s)
			}
		})
	}
}

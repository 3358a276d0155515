package textproto

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name    string
		text    string
		calls   []agent.ToolCall
		invalid []string // substrings of each call's Invalid, "" for a valid call
		prose   string
	}{
		{
			name:  "prose only",
			text:  "Just an answer.\n```go\nfmt.Println()\n```\n",
			prose: "Just an answer.\n```go\nfmt.Println()\n```",
		},
		{
			name: "several blocks with text around",
			text: "I will read both.\n\n```tool-call\n{\"id\": \"a\", \"name\": \"read_file\", \"args\": {\"path\": \"x.go\"}}\n```\n" +
				"and\n```tool-call\n{\"name\": \"search\", \"args\": {\"query\": \"TODO\", \"max\": 3}}\n```\nThen I decide.",
			calls: []agent.ToolCall{
				{ID: "a", Name: "read_file", Args: map[string]any{"path": "x.go"}},
				{ID: "call-2", Name: "search", Args: map[string]any{"query": "TODO", "max": float64(3)}},
			},
			invalid: []string{"", ""},
			prose:   "I will read both.\n\nand\nThen I decide.",
		},
		{
			name:    "CRLF and indented fences",
			text:    "Reading.\r\n  ```tool-call  \r\n{\"name\": \"read_file\",\r\n \"args\": {\"path\": \"a\"}}\r\n  ```\r\nDone.\r\n",
			calls:   []agent.ToolCall{{ID: "call-1", Name: "read_file", Args: map[string]any{"path": "a"}}},
			invalid: []string{""},
			prose:   "Reading.\nDone.",
		},
		{
			name:    "unterminated fence with complete JSON",
			text:    "Go.\n```tool-call\n{\"name\": \"list_dir\"}",
			calls:   []agent.ToolCall{{ID: "call-1", Name: "list_dir", Args: map[string]any{}}},
			invalid: []string{""},
			prose:   "Go.",
		},
		{
			name:    "unterminated fence with incomplete JSON",
			text:    "Go.\n```tool-call\n{\"name\": \"list_dir\", \"args\": {",
			calls:   []agent.ToolCall{{ID: "call-1", Name: "invalid"}},
			invalid: []string{"tool-call block 1: the block is not closed with ```"},
			prose:   "Go.",
		},
		{
			name:    "malformed JSON",
			text:    "```tool-call\n{\"name\": \"read_file\", // the file\n \"args\": {}}\n```",
			calls:   []agent.ToolCall{{ID: "call-1", Name: "invalid"}},
			invalid: []string{"tool-call block 1: invalid JSON: invalid character '/'"},
		},
		{
			name:    "two objects in one block",
			text:    "```tool-call\n{\"name\": \"a\"}\n{\"name\": \"b\"}\n```",
			calls:   []agent.ToolCall{{ID: "call-1", Name: "invalid"}},
			invalid: []string{"invalid JSON"},
		},
		{
			name:    "not an object",
			text:    "```tool-call\n[\"read_file\"]\n```\n```tool-call\nnull\n```",
			calls:   []agent.ToolCall{{ID: "call-1", Name: "invalid"}, {ID: "call-2", Name: "invalid"}},
			invalid: []string{"invalid JSON", "tool-call block 2: the block holds null"},
		},
		{
			name: "missing or bad name",
			text: "```tool-call\n{\"args\": {}}\n```\n```tool-call\n{\"name\": null}\n```\n```tool-call\n{\"name\": 7}\n```\n```tool-call\n{\"name\": \"\"}\n```",
			calls: []agent.ToolCall{
				{ID: "call-1", Name: "invalid"}, {ID: "call-2", Name: "invalid"}, {ID: "call-3", Name: "invalid"}, {ID: "call-4", Name: "invalid"},
			},
			invalid: []string{`"name" is missing`, `"name" is missing`, "block 3", "block 4"},
		},
		{
			name: "args not an object",
			text: "```tool-call\n{\"id\": \"x\", \"name\": \"read_file\", \"args\": [\"a.go\"]}\n```\n```tool-call\n{\"name\": \"glob\", \"args\": \"*.go\"}\n```",
			calls: []agent.ToolCall{
				{ID: "x", Name: "read_file"}, {ID: "call-2", Name: "glob"},
			},
			invalid: []string{`"args" must be a JSON object, got an array`, "got a string"},
		},
		{
			name: "extra fields, numeric id, null args",
			text: "```tool-call\n{\"id\": 7, \"name\": \"read_file\", \"args\": null, \"meta\": {\"timeout\": 10}}\n```",
			calls: []agent.ToolCall{
				{ID: "7", Name: "read_file", Args: map[string]any{}, Meta: agent.CallMeta{Timeout: 10}},
			},
			invalid: []string{""},
		},
		{
			name: "meta read, its unknown fields ignored",
			text: "```tool-call\n{\"name\": \"read_file\", \"args\": {\"path\": \"a.txt\"}, \"meta\": {\"cwd\": \"src\", \"timeout\": 2.5, \"trace\": true}}\n```\n" +
				"```tool-call\n{\"name\": \"list_dir\", \"meta\": {\"cwd\": null}}\n```\n```tool-call\n{\"name\": \"list_dir\", \"meta\": null}\n```",
			calls: []agent.ToolCall{
				{ID: "call-1", Name: "read_file", Args: map[string]any{"path": "a.txt"}, Meta: agent.CallMeta{Cwd: "src", Timeout: 2.5}},
				{ID: "call-2", Name: "list_dir", Args: map[string]any{}},
				{ID: "call-3", Name: "list_dir", Args: map[string]any{}},
			},
			invalid: []string{"", "", ""},
		},
		{
			name: "bad meta",
			text: "```tool-call\n{\"name\": \"read_file\", \"meta\": [\"src\"]}\n```\n" +
				"```tool-call\n{\"name\": \"read_file\", \"meta\": {\"cwd\": 7}}\n```\n" +
				"```tool-call\n{\"name\": \"read_file\", \"meta\": {\"cwd\": {\"path\": \"src\"}}}\n```\n" +
				"```tool-call\n{\"name\": \"read_file\", \"meta\": {\"timeout\": \"10s\"}}\n```\n" +
				"```tool-call\n{\"name\": \"read_file\", \"meta\": {\"timeout\": -1}}\n```",
			calls: []agent.ToolCall{
				{ID: "call-1", Name: "read_file"}, {ID: "call-2", Name: "read_file"}, {ID: "call-3", Name: "read_file"},
				{ID: "call-4", Name: "read_file"}, {ID: "call-5", Name: "read_file"},
			},
			invalid: []string{
				`tool-call block 1: "meta" must be a JSON object, got an array`,
				`"meta.cwd" must be a string (a directory inside the project root), got a number`,
				`"meta.cwd" must be a string (a directory inside the project root), got an object`,
				`"meta.timeout" must be a number of seconds, got a string`,
				`"meta.timeout" must be a positive number of seconds, got -1`,
			},
		},
		{
			name:    "tool-result blocks are prose",
			text:    "```tool-result\n{\"ok\": true}\n```",
			prose:   "```tool-result\n{\"ok\": true}\n```",
			invalid: nil,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls, prose := Parse(tc.text)
			assert.Equal(t, tc.prose, prose)
			require.Len(t, calls, len(tc.calls))
			for i, c := range calls {
				assert.Contains(t, c.Invalid, tc.invalid[i], "call %d", i)
				if tc.invalid[i] == "" {
					assert.Empty(t, c.Invalid)
				} else {
					assert.Contains(t, c.Invalid, "write exactly one JSON object")
				}
				c.Invalid = ""
				assert.Equal(t, tc.calls[i], c)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("text\n```tool-call\n{\"name\": \"a\", \"args\": {}}\n```\nmore")
	f.Add("```tool-call\n{\"name\": ")
	f.Add(" ```tool-call\r\n[1]\r\n```\r\n")
	f.Add("```tool-call\n```tool-call\n```")
	f.Fuzz(func(t *testing.T, text string) {
		calls, prose := Parse(text)
		for _, c := range calls {
			assert.NotEmpty(t, c.ID)
			assert.NotEmpty(t, c.Name)
			assert.True(t, c.Invalid != "" || c.Args != nil, "a valid call has arguments")
		}
		for _, line := range strings.Split(prose, "\n") {
			assert.False(t, isFence(line, callFence), "no block is left in the prose")
		}
		// The stream shows what Parse leaves as prose.
		if !strings.Contains(text, "\r") {
			var shown strings.Builder
			f := &blockFilter{out: func(s string) { shown.WriteString(s) }}
			f.write(text)
			f.flush()
			assert.Equal(t, prose, strings.Trim(shown.String(), blanks))
		}
	})
}

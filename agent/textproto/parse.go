package textproto

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jido-run/jido/agent"
)

// Fences of the protocol: a block opens with a line holding only its tag and closes with a
// line holding only three backticks.
const (
	callFence   = "```tool-call"
	resultFence = "```tool-result"
	closeFence  = "```"
	// blanks may surround a fence, and are trimmed from the prose.
	blanks = " \t\r\n"
)

// isFence reports whether line is the given fence, give or take blanks and a line end.
func isFence(line, fence string) bool { return strings.Trim(line, blanks) == fence }

// Parse finds the calls of a reply: every ```tool-call block, in order, each holding one
// JSON object {"id", "name", "args"} (other fields are ignored). It never fails: a block
// that cannot be understood becomes a call with Invalid set (named "invalid" when it has
// no name), so that the model is told what was wrong. A block left open at the end counts
// when its JSON is complete. Calls without an id get "call-N", N counting blocks from 1.
// prose is the text without the blocks.
func Parse(text string) (calls []agent.ToolCall, prose string) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var kept []string
	for i := 0; i < len(lines); i++ {
		if !isFence(lines[i], callFence) {
			kept = append(kept, lines[i])
			continue
		}
		end := i + 1
		for end < len(lines) && !isFence(lines[end], closeFence) {
			end++
		}
		calls = append(calls, parseCall(strings.Join(lines[i+1:end], "\n"), len(calls)+1, end == len(lines)))
		i = end
	}
	return calls, strings.Trim(strings.Join(kept, "\n"), blanks)
}

// parseCall reads the n-th block; open says it was not closed.
func parseCall(body string, n int, open bool) agent.ToolCall {
	call := agent.ToolCall{ID: fmt.Sprintf("call-%d", n), Name: "invalid"}
	invalid := func(format string, args ...any) agent.ToolCall {
		call.Invalid = fmt.Sprintf("tool-call block %d: ", n) + fmt.Sprintf(format, args...) +
			`; write exactly one JSON object {"name": "...", "args": {...}} per block`
		return call
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &obj); err != nil || obj == nil {
		switch {
		case open:
			return invalid("the block is not closed with ``` and does not hold a complete JSON object")
		case err != nil:
			return invalid("invalid JSON: %v", err)
		}
		return invalid("the block holds null, not a JSON object")
	}
	var id any
	if json.Unmarshal(obj["id"], &id) == nil {
		switch id := id.(type) {
		case string:
			if id != "" {
				call.ID = id
			}
		case float64:
			call.ID = string(obj["id"])
		}
	}
	var name string
	if json.Unmarshal(obj["name"], &name) != nil || name == "" {
		return invalid(`"name" is missing or is not a string`)
	}
	call.Name = name
	call.Args = map[string]any{}
	if args, ok := obj["args"]; ok && string(args) != "null" {
		if json.Unmarshal(args, &call.Args) != nil {
			call.Args = nil
			return invalid(`"args" must be a JSON object, got %s`, kind(args))
		}
	}
	return call
}

// kind names the JSON type of a value for messages.
func kind(v json.RawMessage) string {
	switch v[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

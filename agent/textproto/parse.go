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
// JSON object {"id", "name", "args", "meta"} (other fields are ignored; meta's cwd and
// timeout are read). It never fails: a block
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
	if meta, ok := obj["meta"]; ok && string(meta) != "null" {
		if msg := parseMeta(meta, &call.Meta); msg != "" {
			call.Args, call.Meta = nil, agent.CallMeta{}
			return invalid("%s", msg)
		}
	}
	return call
}

// parseMeta reads a call's "meta" object {"cwd", "timeout"} into m (other fields are
// ignored); it returns what is wrong with it, or "".
func parseMeta(raw json.RawMessage, m *agent.CallMeta) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return fmt.Sprintf(`"meta" must be a JSON object, got %s`, kind(raw))
	}
	if v, ok := fields["cwd"]; ok && string(v) != "null" {
		if json.Unmarshal(v, &m.Cwd) != nil {
			return fmt.Sprintf(`"meta.cwd" must be a string (a directory inside the project root), got %s`, kind(v))
		}
	}
	if v, ok := fields["timeout"]; ok && string(v) != "null" {
		if json.Unmarshal(v, &m.Timeout) != nil {
			return fmt.Sprintf(`"meta.timeout" must be a number of seconds, got %s`, kind(v))
		}
		if m.Timeout < 0 {
			return fmt.Sprintf(`"meta.timeout" must be a positive number of seconds, got %s`, v)
		}
	}
	return ""
}

// kind names the JSON type of a value for messages.
func kind(v json.RawMessage) string {
	switch v[0] {
	case '[':
		return "an array"
	case '{':
		return "an object"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

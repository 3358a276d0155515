package offline

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"strings"
	"unicode"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/tools/definitions"
)

// findPrefix marks the ID of a glob the provider made to find a file the user named that
// does not exist as written ("read the readme": README.md).
const findPrefix = "find-"

// recovery is the provider's next step after results that it can do better than render:
// a read of a file that does not exist becomes a case-insensitive search for files named
// like it; a search that found exactly one reads it, one that found none says so. ok is
// false when there is no such step (and the results are rendered).
func recovery(results []agent.ToolResult, h history, offered func(string) bool) (agent.Message, bool) {
	if len(results) != 1 {
		return agent.Message{}, false
	}
	r := results[0]
	c := h.calls[r.CallID]
	switch {
	case r.Name == "read_file" && !r.OK && isNotExist(r) && offered("glob"):
		name, _ := c.Args["path"].(string)
		if name == "" || strings.Contains(name, "/") || strings.HasPrefix(c.ID, findPrefix) {
			return agent.Message{}, false
		}
		return agent.Message{
			Role:  agent.Assistant,
			Text:  fmt.Sprintf("There is no %s; looking for files named like it.", name),
			Calls: []agent.ToolCall{{ID: findPrefix + c.ID, Name: "glob", Args: map[string]any{"pattern": "**/" + caseless(name) + "*"}}},
		}, true
	case r.Name == "glob" && r.OK && strings.HasPrefix(c.ID, findPrefix):
		var v definitions.FileList
		read, ok := h.calls[strings.TrimPrefix(c.ID, findPrefix)]
		if json.Unmarshal(r.Content, &v) != nil || !ok || len(v.Files) > 1 {
			return agent.Message{}, false // several: the glob's result, rendered, lists them
		}
		if len(v.Files) == 0 {
			return agent.Message{Role: agent.Assistant, Text: fmt.Sprintf("No file is named like %v.", read.Args["path"])}, true
		}
		args := maps.Clone(read.Args)
		args["path"] = v.Files[0].Path
		return agent.Message{
			Role:  agent.Assistant,
			Calls: []agent.ToolCall{{ID: findPrefix + "read-" + read.ID, Name: "read_file", Args: args}},
		}, true
	}
	return agent.Message{}, false
}

// isNotExist reports whether a failed result says that the path does not exist.
func isNotExist(r agent.ToolResult) bool {
	var e struct {
		Type, Message string
	}
	return json.Unmarshal(r.Content, &e) == nil && e.Type == "file-error" && strings.Contains(e.Message, "does not exist")
}

// caseless turns a file name into a glob that matches it in any case: readme -> [rR][eE]...;
// glob metacharacters in the name are escaped.
func caseless(name string) string {
	var b strings.Builder
	for _, r := range path.Base(name) {
		switch {
		case unicode.IsLetter(r) && unicode.ToUpper(r) != unicode.ToLower(r):
			fmt.Fprintf(&b, "[%c%c]", unicode.ToLower(r), unicode.ToUpper(r))
		case strings.ContainsRune(`*?[]{}\`, r):
			b.WriteString(`\` + string(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

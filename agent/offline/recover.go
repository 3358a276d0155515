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
	if next, ok := followHint(r, c, offered); ok {
		return next, true
	}
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
			Calls: []agent.ToolCall{{ID: findPrefix + "read-" + read.ID, Name: "read_file", Args: args, Opaque: read.Opaque}},
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

// followHint is the next step a plan's hint asks for: the last lines of a file whose lines
// were counted, the call on the one file a bare name found. ok is false when there is none.
func followHint(r agent.ToolResult, c agent.ToolCall, offered func(string) bool) (agent.Message, bool) {
	h := hintOf(c)
	switch {
	case !r.OK:
		return agent.Message{}, false
	case r.Name == "read_file" && h.Last > 0:
		var v definitions.ReadFileResult
		if json.Unmarshal(r.Content, &v) != nil || v.Path == "" {
			return agent.Message{}, false
		}
		args := map[string]any{"path": v.Path, "offset": max(v.TotalLines-h.Last+1, 1), "limit": h.Last}
		return agent.Message{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "last-" + c.ID, Name: "read_file", Args: args}}}, true
	case r.Name == "glob" && h.Then != nil:
		var v definitions.FileList
		if json.Unmarshal(r.Content, &v) != nil || len(v.Files) > 1 {
			return agent.Message{}, false // several: the glob's result, rendered, lists them
		}
		if len(v.Files) == 0 {
			return agent.Message{Role: agent.Assistant, Text: fmt.Sprintf("No file is named %s.", bareName(c))}, true
		}
		f := v.Files[0]
		if f.Type == "dir" && offered("list_dir") {
			return agent.Message{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "then-" + c.ID, Name: "list_dir", Args: map[string]any{"path": f.Path}}}}, true
		}
		if !offered(h.Then.Name) {
			return agent.Message{}, false
		}
		args := maps.Clone(h.Then.Args)
		if args == nil {
			args = map[string]any{}
		}
		args["path"] = f.Path
		then := *h.Then
		then.Then = nil
		return agent.Message{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "then-" + c.ID, Name: then.Name, Args: args, Opaque: sealHint(then)}}}, true
	}
	return agent.Message{}, false
}

// bareName is the name a glob of a bare name looked for: "client" of **/client.
func bareName(c agent.ToolCall) string {
	if ps := stringsArg(c, "patterns"); len(ps) > 0 {
		return strings.TrimPrefix(ps[0], "**/")
	}
	return argOr(c, "pattern", "like that")
}

package mcp

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/tools/export"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpTool is the MCP form of t: export.MCPTool's name, description, input schema and
// annotations, plus the output schema of a built-in tool's result. A tool whose result has
// no declared type (a user's Lua tool, a profile's tool, whose result the profile reshapes)
// has no output schema.
func mcpTool(t *definitions.Tool) *sdk.Tool {
	mt := export.MCPTool(t)
	if builtinTool, ok := definitions.Lookup(t.Name); ok && builtinTool == t {
		if typ, ok := builtin.ResultType(t.Name); ok {
			mt.OutputSchema = outputSchema(typ)
		}
	}
	return mt
}

// offered is a tool as a server offers it: its declaration, and the JSON of its MCP form,
// to tell a changed declaration from a new value of the same one.
type offered struct {
	decl *definitions.Tool
	form []byte
}

// toolSet keeps the tools of an sdk.Server in step with a jido session's, which can change
// while it lives (user tools in .jido/tools are added, edited, removed). Adding or removing
// a tool makes the SDK send notifications/tools/list_changed to the client; toolSet tells
// which of those the client needs (notify).
type toolSet struct {
	server *sdk.Server
	call   sdk.ToolHandler // the handler of every tool

	mu    sync.Mutex
	tools map[string]offered // by name
	// stale says the tools changed since the client last had the list. The first sync,
	// when the jido session opens, is no change: a client that lists tools always gets
	// the session's, since tools/list opens the session first.
	stale bool
}

// listed records that the client is being sent the current list.
func (ts *toolSet) listed() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.stale = false
}

// notify reports whether a notifications/tools/list_changed the SDK is about to send
// tells the client of a change it has not seen, and counts it told.
func (ts *toolSet) notify() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	stale := ts.stale
	ts.stale = false
	return stale
}

// has reports whether the server offers the tool name.
func (ts *toolSet) has(name string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	_, ok := ts.tools[name]
	return ok
}

// sync makes the server offer exactly tools: it adds the new ones, replaces the changed
// ones and removes those gone, and reports whether anything changed.
func (ts *toolSet) sync(tools []*definitions.Tool) (changed bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	first := ts.tools == nil
	if first {
		ts.tools = map[string]offered{}
	}
	defer func() { ts.stale = ts.stale || changed && !first }()
	keep := map[string]bool{}
	for _, t := range tools {
		keep[t.Name] = true
		old, ok := ts.tools[t.Name]
		if ok && old.decl == t {
			continue
		}
		mt := mcpTool(t)
		// The form only tells whether the tool changed: one that does not marshal (the SDK
		// then fails to list it, saying why) has none and counts as changed.
		form, _ := json.Marshal(mt)
		ts.tools[t.Name] = offered{decl: t, form: form}
		if !ok || form == nil || !bytes.Equal(old.form, form) {
			ts.server.AddTool(mt, ts.call)
			changed = true
		}
	}
	var gone []string
	for _, name := range slices.Sorted(maps.Keys(ts.tools)) {
		if !keep[name] {
			gone = append(gone, name)
			delete(ts.tools, name)
		}
	}
	if len(gone) > 0 {
		ts.server.RemoveTools(gone...)
		changed = true
	}
	return changed
}

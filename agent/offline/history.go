package offline

import (
	"encoding/json"
	"path"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/interpret"
	"github.com/jido-run/jido/testrun"
	"github.com/jido-run/jido/tools/definitions"
)

// testsResult is the part of run_tests' result the provider reads: the run's summary
// (testrun.Summary, whose JSON the result inlines) and how it ran.
type testsResult struct {
	testrun.Summary
	Command []string `json:"command"`
	DryRun  bool     `json:"dry_run"`
}

// history is what the provider reads from the conversation.
type history struct {
	context interpret.Context
	calls   map[string]agent.ToolCall // every call so far, by ID
}

// readHistory follows the conversation: each successful result updates the current file,
// the last listing and the directory in focus.
func readHistory(msgs []agent.Message) history {
	h := history{calls: map[string]agent.ToolCall{}}
	for _, m := range msgs {
		for _, c := range m.Calls {
			h.calls[c.ID] = c
		}
		for _, r := range m.Results {
			if r.OK {
				h.learn(r, h.calls[r.CallID])
			}
		}
	}
	return h
}

// learn updates the context from one successful result. Results that do not decode (cut
// to fit the conversation) teach nothing.
func (h *history) learn(r agent.ToolResult, c agent.ToolCall) {
	ctx := &h.context
	switch r.Name {
	case "read_file":
		var v definitions.ReadFileResult
		if json.Unmarshal(r.Content, &v) == nil && v.Path != "" {
			ctx.LastFile = v.Path
		}
	case "write_file", "edit_file", "edit_region", "multi_edit":
		if p, ok := c.Args["path"].(string); ok && p != "" {
			ctx.LastFile = p
		}
	case "list_dir":
		var v definitions.ListDirResult
		if json.Unmarshal(r.Content, &v) == nil && v.Path != "" {
			ctx.Dir, ctx.LastListing = v.Path, nil
			for _, e := range v.Entries {
				p := path.Join(v.Path, e.Name)
				if e.Type == "dir" {
					p += "/"
				}
				ctx.LastListing = append(ctx.LastListing, p)
			}
		}
	case "list_files", "glob":
		var v definitions.FileList
		if json.Unmarshal(r.Content, &v) == nil {
			ctx.LastListing = nil
			for _, f := range v.Files {
				ctx.LastListing = append(ctx.LastListing, entryPath(f.Path, f.Type))
			}
		}
	case "search":
		var v definitions.SearchResult
		if json.Unmarshal(r.Content, &v) == nil {
			ctx.LastListing = searchPaths(v)
		}
	}
}

// entryPath marks a directory's path with a trailing "/".
func entryPath(p, typ string) string {
	if typ == "dir" {
		return p + "/"
	}
	return p
}

// searchPaths are the files a search found, each once, in order.
func searchPaths(v definitions.SearchResult) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, f := range v.Files {
		add(f)
	}
	for _, m := range v.Matches {
		add(m.Path)
	}
	for _, c := range v.Counts {
		add(c.Path)
	}
	return out
}

package offline

import (
	"encoding/json"
	"path"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/interpret"
)

// The parts of the tools' results the provider reads, to render them and to follow the
// conversation's context. Their JSON names are the tools' (bridge's result types).
type (
	readResult struct {
		Path       string `json:"path"`
		Content    string `json:"content"`
		TotalLines int    `json:"total_lines"`
		StartLine  int    `json:"start_line"`
		EndLine    int    `json:"end_line"`
		Truncated  bool   `json:"truncated"`
		NextOffset int    `json:"next_offset"`
	}
	listDirResult struct {
		Path    string `json:"path"`
		Entries []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"entries"`
		Listing   string `json:"listing"`
		Ignored   int    `json:"ignored"`
		Truncated bool   `json:"truncated"`
	}
	filesResult struct { // list_files and glob
		Files []struct {
			Path string `json:"path"`
			Type string `json:"type"`
		} `json:"files"`
		Count     int  `json:"count"`
		Truncated bool `json:"truncated"`
	}
	searchResult struct {
		OutputMode string `json:"output_mode"`
		Matches    []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"matches"`
		Files  []string `json:"files"`
		Counts []struct {
			Path  string `json:"path"`
			Count int    `json:"count"`
		} `json:"counts"`
		Count         int  `json:"count"`
		FilesSearched int  `json:"files_searched"`
		Truncated     bool `json:"truncated"`
	}
	existsResult struct {
		Path   string `json:"path"`
		Exists bool   `json:"exists"`
		Type   string `json:"type"`
	}
	testsResult struct {
		Runner     string   `json:"runner"`
		Command    []string `json:"command"`
		DryRun     bool     `json:"dry_run"`
		Total      int      `json:"total"`
		Passed     int      `json:"passed"`
		Failed     int      `json:"failed"`
		Errors     int      `json:"errors"`
		Skipped    int      `json:"skipped"`
		DurationMS int64    `json:"duration_ms"`
		TimedOut   bool     `json:"timed_out"`
		Parsed     bool     `json:"parsed"`
		Report     string   `json:"report"`
		Failures   []struct {
			Name    string `json:"name"`
			File    string `json:"file"`
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"failures"`
	}
)

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
		var v readResult
		if json.Unmarshal(r.Content, &v) == nil && v.Path != "" {
			ctx.LastFile = v.Path
		}
	case "write_file", "edit_file", "edit_region", "multi_edit":
		if p, ok := c.Args["path"].(string); ok && p != "" {
			ctx.LastFile = p
		}
	case "list_dir":
		var v listDirResult
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
		var v filesResult
		if json.Unmarshal(r.Content, &v) == nil {
			ctx.LastListing = nil
			for _, f := range v.Files {
				ctx.LastListing = append(ctx.LastListing, entryPath(f.Path, f.Type))
			}
		}
	case "search":
		var v searchResult
		if json.Unmarshal(r.Content, &v) == nil {
			ctx.LastListing = v.paths()
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

// paths are the files a search found, each once, in order.
func (v searchResult) paths() []string {
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

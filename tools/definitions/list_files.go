package definitions

import "time"

// ListFilesParams are the arguments of list_files.
type ListFilesParams struct {
	Directory      string `json:"directory,omitempty" jido:"path" default:"\".\"" jsonschema:"directory to list recursively, relative to the project root"`
	MaxDepth       int    `json:"max_depth,omitempty" default:"5" minimum:"1" jsonschema:"how many levels to descend (1: the directory's own entries)"`
	IncludeHidden  bool   `json:"include_hidden,omitempty" jsonschema:"also list entries whose name starts with a dot (.git never)"`
	FollowSymlinks bool   `json:"follow_symlinks,omitempty" jsonschema:"list symlinks as their targets and enter linked directories, for targets inside the project root"`
	NoIgnore       bool   `json:"no_ignore,omitempty" jsonschema:"also list what .gitignore and .jidoignore exclude"`
	MaxResults     int    `json:"max_results,omitempty" default:"1000" minimum:"1" jsonschema:"maximum number of entries returned"`
}

// ListFiles declares list_files.
var ListFiles = define[ListFilesParams]("list_files", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"directory"}})

// FileInfo describes one file found by glob or list_files.
type FileInfo struct {
	Path  string    `json:"path"`
	Size  int64     `json:"size"`
	MTime time.Time `json:"mtime"`
	Type  string    `json:"type"`
}

// FileList is the result of glob and list_files.
type FileList struct {
	Files     []FileInfo `json:"files"`
	Count     int        `json:"count"`
	Truncated bool       `json:"truncated"`
}

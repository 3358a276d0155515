package definitions

// ListDirParams are the arguments of list_dir.
type ListDirParams struct {
	Path           string   `json:"path,omitempty" jido:"path" default:"\".\"" jsonschema:"directory to list, relative to the project root"`
	IgnorePatterns []string `json:"ignore_patterns,omitempty" jsonschema:"glob patterns of entry names to leave out, e.g. *.log or node_modules"`
	NoIgnore       bool     `json:"no_ignore,omitempty" jsonschema:"also list the entries that .gitignore and .jidoignore exclude"`
}

// ListDir declares list_dir.
var ListDir = define[ListDirParams]("list_dir", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"path"}})

// DirEntry is one entry of list_dir.
type DirEntry struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Size int64  `json:"size"`
}

// ListDirResult is the result of list_dir.
type ListDirResult struct {
	Path      string     `json:"path"`
	Entries   []DirEntry `json:"entries"`
	Listing   string     `json:"listing"`
	Ignored   int        `json:"ignored"`
	Truncated bool       `json:"truncated"`
}

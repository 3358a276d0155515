package definitions

// ListDirParams are the arguments of list_dir.
type ListDirParams struct {
	Path           string   `json:"path,omitempty" jido:"path" default:"\".\"" jsonschema:"directory to list, relative to the project root"`
	IgnorePatterns []string `json:"ignore_patterns,omitempty" jsonschema:"glob patterns of entry names to leave out, e.g. *.log or node_modules"`
	NoIgnore       bool     `json:"no_ignore,omitempty" jsonschema:"also list the entries that .gitignore and .jidoignore exclude"`
}

// ListDir declares list_dir.
var ListDir = define[ListDirParams]("list_dir", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader})

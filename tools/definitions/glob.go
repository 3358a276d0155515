package definitions

// GlobParams are the arguments of glob.
type GlobParams struct {
	Pattern       string   `json:"pattern,omitempty" jsonschema:"a glob such as **/*.go or src/{a,b}/*.ts"`
	Patterns      []string `json:"patterns,omitempty" jsonschema:"several globs; files matching any are returned"`
	Path          string   `json:"path,omitempty" jido:"path" default:"\".\"" jsonschema:"directory the patterns are relative to"`
	MaxResults    int      `json:"max_results,omitempty" default:"1000" minimum:"1" jsonschema:"maximum number of files returned"`
	IncludeHidden bool     `json:"include_hidden,omitempty" jsonschema:"also match files and directories whose name starts with a dot"`
}

// Glob declares glob.
var Glob = define[GlobParams]("glob", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"pattern", "path"}})

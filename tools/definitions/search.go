package definitions

// SearchParams are the arguments of search.
type SearchParams struct {
	Query         string   `json:"query" jsonschema:"text to find, or a Go (RE2) regular expression when is_regex"`
	IsRegex       bool     `json:"is_regex,omitempty" jsonschema:"treat query as a regular expression (RE2 syntax: no backreferences or lookaround)"`
	CaseSensitive *bool    `json:"case_sensitive,omitempty" jsonschema:"match case exactly; when left out, the search ignores case unless the query has an upper-case letter"`
	Path          string   `json:"path,omitempty" jido:"path" default:"\".\"" jsonschema:"directory (or single file) to search, relative to the project root"`
	IncludePaths  []string `json:"include_paths,omitempty" jsonschema:"only files matching one of these globs (a glob without / matches the file name at any depth, e.g. *.go)"`
	ExcludePaths  []string `json:"exclude_paths,omitempty" jsonschema:"leave out files and directories matching one of these globs"`
	OutputMode    string   `json:"output_mode,omitempty" default:"\"content\"" enum:"content|files_with_matches|count" jsonschema:"content: matching lines; files_with_matches: paths only; count: matching lines per file"`
	MaxResults    int      `json:"max_results,omitempty" default:"200" minimum:"1" jsonschema:"maximum number of matching lines (content) or files (other modes) returned"`
	Context       int      `json:"context,omitempty" minimum:"0" maximum:"50" jsonschema:"lines of context before and after each match"`
	Before        int      `json:"before,omitempty" minimum:"0" maximum:"50" jsonschema:"lines of context before each match (overrides context)"`
	After         int      `json:"after,omitempty" minimum:"0" maximum:"50" jsonschema:"lines of context after each match (overrides context)"`
	Multiline     bool     `json:"multiline,omitempty" jsonschema:"let a regular expression match across lines (\\n in the pattern matches a line break)"`
	IncludeHidden bool     `json:"include_hidden,omitempty" jsonschema:"also search files whose name starts with a dot"`
	SortBy        string   `json:"sort_by,omitempty" default:"\"path\"" enum:"path|mtime" jsonschema:"path: by path then line; mtime: files changed most recently first"`
}

// Search declares search.
var Search = define[SearchParams]("search", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"query", "path"}})

// SearchMatch is one matching line of search.
type SearchMatch struct {
	Path      string   `json:"path"`
	Line      int      `json:"line"`
	EndLine   int      `json:"end_line,omitempty"` // last line of a multiline match
	Column    int      `json:"column"`
	MatchText string   `json:"match_text"`
	Text      string   `json:"text"`
	Before    []string `json:"before,omitempty"`
	After     []string `json:"after,omitempty"`
}

// FileCount is the number of matching lines of one file (output_mode count).
type FileCount struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// Skipped counts the files a search left out, so that an empty result can be trusted.
type Skipped struct {
	Binary     int64 `json:"binary"`
	TooLarge   int64 `json:"too_large"`
	Secret     int64 `json:"secret"`
	Unreadable int64 `json:"unreadable"`
}

// SearchResult is the result of search; which list is set depends on output_mode.
type SearchResult struct {
	OutputMode    string        `json:"output_mode"`
	Matches       []SearchMatch `json:"matches,omitempty"`
	Files         []string      `json:"files,omitempty"`
	Counts        []FileCount   `json:"counts,omitempty"`
	Count         int           `json:"count"` // entries in the list returned
	FilesSearched int64         `json:"files_searched"`
	Skipped       Skipped       `json:"skipped"`
	Truncated     bool          `json:"truncated"`
}

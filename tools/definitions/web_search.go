package definitions

// WebSearchParams are the arguments of web_search.
type WebSearchParams struct {
	Query          string   `json:"query" jsonschema:"what to search the web for"`
	NumResults     int      `json:"num_results,omitempty" default:"10" minimum:"1" maximum:"50" jsonschema:"how many results to return"`
	IncludeDomains []string `json:"include_domains,omitempty" jsonschema:"only results from these domains (and their subdomains), e.g. go.dev"`
	Category       string   `json:"category,omitempty" jsonschema:"a kind of result the provider may favour: news, research paper, company, ..."`
}

// WebSearch declares web_search, which asks the configured search provider (Exa, Gemini's
// Google Search grounding or a SearXNG instance); like web_fetch it has the network class.
var WebSearch = define[WebSearchParams]("web_search", Decl{Flags: Flags{ReadOnly: true, OpenWorld: true}, Role: RoleReader, Positional: []string{"query"}})

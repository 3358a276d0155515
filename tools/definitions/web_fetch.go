package definitions

// WebFetchParams are the arguments of web_fetch.
type WebFetchParams struct {
	URL      string  `json:"url" jsonschema:"the http or https URL to fetch"`
	Format   string  `json:"format,omitempty" default:"\"markdown\"" enum:"markdown|text|html" jsonschema:"how an HTML page is returned: markdown, plain text, or the HTML itself; other text types come as they are"`
	MaxChars int     `json:"max_chars,omitempty" default:"100000" minimum:"1" maximum:"1000000" jsonschema:"characters of content returned; the rest is cut and truncated is set"`
	Timeout  float64 `json:"timeout,omitempty" default:"30" minimum:"0.1" maximum:"120" jsonschema:"seconds before the fetch is given up"`
}

// WebFetch declares web_fetch: it changes nothing in the project, but reaches the network
// (the policy's network class: it asks in default mode and is off in read-only mode).
var WebFetch = define[WebFetchParams]("web_fetch", Decl{Flags: Flags{ReadOnly: true, OpenWorld: true}, Role: RoleReader, Positional: []string{"url"}})

package web

import (
	"net/url"
	"strings"
	"time"

	"github.com/jido-run/jido/tools/definitions"
)

// Output formats of web_fetch for HTML pages; other text is returned as it is.
const (
	FormatMarkdown = "markdown" // the page converted to Markdown (the default)
	FormatText     = "text"     // the page's visible text, one block per line
	FormatHTML     = "html"     // the page's HTML as received (decoded to UTF-8)
)

// Limits of a FetchRequest. A value of 0 takes the default; a value above the cap is
// lowered to the cap (a model asking for "a lot" gets the most there is, not an error);
// a negative value is a ValidationError.
const (
	DefaultMaxChars = 100_000
	MaxMaxChars     = 1_000_000
	DefaultTimeout  = 30 * time.Second
	MaxTimeout      = 120 * time.Second
)

// FetchRequest is one web_fetch call.
type FetchRequest struct {
	URL      string        // http or https, without user:password@
	Format   string        // FormatMarkdown (""), FormatText or FormatHTML
	MaxChars int           // cut the content after this many characters
	Timeout  time.Duration // for the whole fetch, redirects and body included
	// Redact, when set, removes credentials from the body before it is converted: the
	// conversion escapes characters (ghp_ becomes ghp\_ in Markdown), which would hide a
	// token from rules run on its output alone.
	Redact func([]byte) []byte
}

// fetchParams is a FetchRequest checked and with its defaults filled in.
type fetchParams struct {
	url      *url.URL
	format   string
	maxChars int
	timeout  time.Duration
	redact   func([]byte) []byte
}

// params checks r and fills in its defaults.
func (r FetchRequest) params() (fetchParams, error) {
	u, err := checkURL(r.URL)
	if err != nil {
		return fetchParams{}, err
	}
	p := fetchParams{url: u, format: r.Format, maxChars: r.MaxChars, timeout: r.Timeout, redact: r.Redact}
	switch p.format {
	case "":
		p.format = FormatMarkdown
	case FormatMarkdown, FormatText, FormatHTML:
	default:
		return fetchParams{}, definitions.NewError(definitions.ValidationError, "unknown format %q", r.Format).
			Hint("use `markdown` (the default), `text` or `html`")
	}
	if p.maxChars, err = limit("max_chars", p.maxChars, DefaultMaxChars, MaxMaxChars); err != nil {
		return fetchParams{}, err
	}
	if p.timeout, err = limit("timeout", p.timeout, DefaultTimeout, MaxTimeout); err != nil {
		return fetchParams{}, err
	}
	return p, nil
}

// limit applies the rule of the limits above to v: 0 gives def, more than most gives most,
// less than 0 is a ValidationError naming the parameter.
func limit[T int | time.Duration](name string, v, def, most T) (T, error) {
	switch {
	case v < 0:
		return 0, definitions.NewError(definitions.ValidationError, "%s must not be negative, got %v", name, v).
			Hint("leave " + name + " out for the default")
	case v == 0:
		return def, nil
	case v > most:
		return most, nil
	}
	return v, nil
}

// checkURL parses raw and accepts it only when it is an http or https URL with a host and
// no credentials. It checks the request URL and every redirect target.
func checkURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, definitions.NewError(definitions.ValidationError, "url is empty").
			Hint("pass an absolute http or https URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "cannot parse URL %q: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, definitions.NewError(definitions.ValidationError, "only http and https URLs are fetched, not %q", u.Scheme).
			With("url", raw).Hint("pass an absolute http or https URL")
	}
	if u.User != nil {
		return nil, definitions.NewError(definitions.ValidationError, "URLs with credentials (user:password@) are refused").
			Hint("drop the user info from the URL")
	}
	if u.Hostname() == "" {
		return nil, definitions.NewError(definitions.ValidationError, "URL %q has no host", raw)
	}
	return u, nil
}

package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/jido-run/jido/tools/definitions"
)

// Defaults of a FetchConfig.
const (
	DefaultMaxBytes     = 10 << 20
	DefaultMaxRedirects = 10
	DefaultCacheEntries = 32
	DefaultCacheTTL     = 15 * time.Minute
)

// userAgent names jido and the tool to the sites it fetches.
const userAgent = "jido/0 (+web_fetch)"

// accept prefers HTML (which is converted) and Markdown (which some sites serve to
// agents), then any text.
const accept = "text/html, text/markdown, application/xhtml+xml;q=0.9, text/plain;q=0.8, */*;q=0.5"

// FetchConfig configures a Fetcher. The zero value is the safe default: public internet
// addresses only, the limits and cache of the constants above.
type FetchConfig struct {
	// AllowNets are address ranges that may be connected to although they are refused
	// by default (loopback, private, link-local, …): a lab network, or loopback in tests.
	AllowNets []netip.Prefix
	// AllowHosts are host names whose connections may reach any address: an intranet
	// docs host. An entry is a name ("docs.corp") or a wildcard for the names below one
	// ("*.corp.example", which does not match "corp.example" itself). Case and a
	// trailing dot do not matter.
	AllowHosts []string
	// MaxBytes caps the body read from a response (0 or less: DefaultMaxBytes); the rest
	// is not read and the result says truncated. The cap applies after decompression.
	MaxBytes int64
	// MaxRedirects caps the redirects followed (0: DefaultMaxRedirects; negative: none).
	MaxRedirects int
	// CacheEntries is the size of the cache of recent fetches (0: DefaultCacheEntries;
	// negative: no cache) and CacheTTL how long an entry is served (0: DefaultCacheTTL).
	CacheEntries int
	CacheTTL     time.Duration
	// Resolver resolves host names (nil: net.DefaultResolver). Whatever it answers, the
	// address is checked when it is dialled; tests inject one to make a name resolve to
	// loopback.
	Resolver *net.Resolver
}

// FetchResult is what web_fetch returns.
type FetchResult struct {
	URL         string `json:"url"` // after redirects
	Title       string `json:"title"`
	Content     string `json:"content"`
	ContentType string `json:"content_type"` // media type, without parameters
	Status      int    `json:"status"`
	// Truncated tells that the body hit the byte cap or the content was cut at max_chars.
	Truncated bool `json:"truncated"`
	// Cached tells that the result comes from the Fetcher's cache, without a request.
	Cached bool `json:"cached,omitempty"`
}

// Fetcher is the web_fetch tool: it fetches one URL and returns its text. It is safe for
// concurrent use; its cache is shared by all calls.
type Fetcher struct {
	client   *http.Client
	md       *converter.Converter
	cache    *resultCache // nil: no cache
	maxBytes int64
}

// NewFetcher returns a Fetcher configured by cfg.
func NewFetcher(cfg FetchConfig) *Fetcher {
	policy := &dialPolicy{allowNets: cfg.AllowNets, resolver: cfg.Resolver}
	for _, h := range cfg.AllowHosts {
		policy.allowHosts = append(policy.allowHosts, normalizeHost(h))
	}
	transport := &http.Transport{
		Proxy:               nil, // a proxy would be the only address the dial check sees
		DialContext:         policy.dialContext,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        16,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	maxRedirects := cfg.MaxRedirects
	if maxRedirects == 0 {
		maxRedirects = DefaultMaxRedirects
	}
	f := &Fetcher{
		client: &http.Client{
			Transport:     transport,
			CheckRedirect: func(req *http.Request, via []*http.Request) error { return checkRedirect(req, via, maxRedirects) },
		},
		md:       newMarkdownConverter(),
		maxBytes: cfg.MaxBytes,
	}
	if f.maxBytes <= 0 {
		f.maxBytes = DefaultMaxBytes
	}
	if cfg.CacheEntries >= 0 {
		f.cache = newResultCache(orDefault(cfg.CacheEntries, DefaultCacheEntries), orDefault(cfg.CacheTTL, DefaultCacheTTL))
	}
	return f
}

// orDefault is v, or def when v is zero.
func orDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// checkRedirect is the client's CheckRedirect: each hop must be a URL web_fetch would
// fetch itself, and there may be at most most of them (negative: none).
func checkRedirect(req *http.Request, via []*http.Request, most int) error {
	if len(via) > most {
		return definitions.NewError(definitions.NetworkError, "stopped after %d redirects", max(most, 0)).
			With("redirects", max(most, 0)).With("last_url", via[len(via)-1].URL.String()).
			Hint("fetch the last URL directly if the chain is legitimate")
	}
	_, err := checkURL(req.URL.String())
	return err
}

// Fetch fetches req.URL and returns its content. Errors are *definitions.ToolError,
// except the context's own error when ctx ends first. A non-2xx answer is a result, not
// an error: its status says what happened.
func (f *Fetcher) Fetch(ctx context.Context, req FetchRequest) (*FetchResult, error) {
	p, err := req.params()
	if err != nil {
		return nil, err
	}
	key := p.url.String() + "\x00" + p.format + "\x00" + strconv.Itoa(p.maxChars)
	if f.cache != nil {
		if r, ok := f.cache.get(key); ok {
			return r, nil
		}
	}
	fetchCtx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	r, err := f.fetch(fetchCtx, p)
	if err != nil {
		return nil, requestError(ctx, err, p.url.Hostname(), p.timeout, "raise `timeout` (at most 120s) for a slow site, or try again later")
	}
	if f.cache != nil && r.Status >= 200 && r.Status < 300 {
		f.cache.put(key, r)
	}
	return r, nil
}

// fetch does the request of p and renders its answer.
func (f *Fetcher) fetch(ctx context.Context, p fetchParams) (*FetchResult, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.url.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", accept)
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, truncated, err := readCapped(resp.Body, f.maxBytes)
	if err != nil {
		return nil, err
	}
	if p.redact != nil {
		body = p.redact(body)
	}
	final := resp.Request.URL
	out, err := render(f.md, body, resp.Header.Get("Content-Type"), p.format, final)
	if err != nil {
		return nil, err
	}
	content, cut := cutRunes(out.content, p.maxChars)
	return &FetchResult{
		URL:         final.String(),
		Title:       out.title,
		Content:     content,
		ContentType: out.media,
		Status:      resp.StatusCode,
		Truncated:   truncated || cut,
	}, nil
}

// readCapped reads r up to most bytes; truncated tells that there was more. It never
// holds more than most+1 bytes, whatever the size of the body.
func readCapped(r io.Reader, most int64) (body []byte, truncated bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, most+1))
	if int64(len(body)) > most {
		return body[:most], true, err
	}
	return body, false, err
}

// cutRunes cuts s after most characters; cut tells whether it did.
func cutRunes(s string, most int) (string, bool) {
	n := 0
	for i := range s {
		if n == most {
			return s[:i], true
		}
		n++
	}
	return s, false
}

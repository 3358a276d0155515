package gemini

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/jido-run/jido/agent"
)

// The SDK reads a streamed answer with a bufio.Scanner and, when the body breaks off (a
// dropped connection, a cancelled context), prints the read error with the standard log
// package before returning it: a stray line in the middle of the user's terminal. So the
// provider's HTTP client gives the SDK bodies on which a read error looks like the end of
// the answer, and keeps the error for the call, which then reports it.

// bodyFailure holds the first read error of the bodies of one call.
type bodyFailure struct {
	mu  sync.Mutex
	err error
}

func (f *bodyFailure) set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

func (f *bodyFailure) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// failureKey is the context key of a call's *bodyFailure.
type failureKey struct{}

// watchBodies returns a context for one call whose answers' read errors are kept, and
// where they are kept.
func watchBodies(ctx context.Context) (context.Context, *bodyFailure) {
	f := new(bodyFailure)
	return context.WithValue(ctx, failureKey{}, f), f
}

// quietClient is a copy of c (nil: a new client) whose transport quiets the bodies of
// the calls made with watchBodies.
func quietClient(c *http.Client) *http.Client {
	out := new(http.Client)
	if c != nil {
		*out = *c
	}
	base := out.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	out.Transport = quietTransport{base: base}
	return out
}

// quietTransport wraps the body of each answer to a watched call in a quietBody.
type quietTransport struct {
	base http.RoundTripper
}

func (t quietTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 400 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		// A web page, not the API: the SDK would only fail to decode it.
		_ = resp.Body.Close()
		err := &agent.APIError{Provider: providerName, Status: resp.StatusCode,
			Message: fmt.Sprintf("the server at %s answered with an HTML page, not a Gemini response", req.URL.Scheme+"://"+req.URL.Host),
			Hint:    "check --base-url (Gemini's is https://generativelanguage.googleapis.com)"}
		if f, ok := req.Context().Value(failureKey{}).(*bodyFailure); ok {
			f.set(err)
		}
		return nil, err
	}
	if f, ok := req.Context().Value(failureKey{}).(*bodyFailure); ok {
		resp.Body = quietBody{ReadCloser: resp.Body, failure: f}
	}
	return resp, nil
}

// quietBody turns a read error into io.EOF, after keeping it in failure.
type quietBody struct {
	io.ReadCloser
	failure *bodyFailure
}

func (b quietBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		b.failure.set(err)
		err = io.EOF
	}
	return n, err
}

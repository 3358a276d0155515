package web

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/jido-run/jido/tools/definitions"
)

// maxAnswerBytes caps the JSON answer of a search provider.
const maxAnswerBytes = 4 << 20

// providerClient is c, or for a provider configured without one a plain client with a
// timeout. Provider endpoints are trusted configuration (a SearXNG on localhost is
// normal), so they do not go through the address checks of Fetcher.
func providerClient(c *http.Client) *http.Client {
	if c != nil {
		return c
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// doJSON sends req for provider and decodes its 2xx JSON answer into out. A non-2xx
// answer becomes the error statusErr makes of its status and the start of its body.
func doJSON(client *http.Client, provider string, req *http.Request, out any, statusErr func(status int, excerpt string) error) error {
	resp, err := client.Do(req)
	if err != nil {
		return requestError(req.Context(), err, req.URL.Hostname(), client.Timeout, "try again later")
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		head, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return statusErr(resp.StatusCode, collapseSpace(strings.ToValidUTF8(string(head), "\uFFFD")))
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswerBytes)).Decode(out); err != nil {
		return definitions.NewError(definitions.NetworkError, "%s answered with invalid JSON: %v", provider, err)
	}
	return nil
}

package web

import (
	"net"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testNames are what the fake DNS of the SSRF tests resolves: names an attacker controls
// that point at loopback, and numeric forms of 127.0.0.1 that the C library's resolver
// (inet_aton) turns into that address.
var testNames = map[string]string{
	"localhost":   "127.0.0.1",
	"rebind.test": "127.0.0.1",
	"front.test":  "127.0.0.1",
	"other.test":  "127.0.0.1",
	"2130706433":  "127.0.0.1",
	"0x7f.1":      "127.0.0.1",
	"0177.0.0.1":  "127.0.0.1",
}

func TestFetchRefusesInternalAddresses(t *testing.T) {
	srv, hits := countingServer(t, serve("text/plain", "secret"))
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	f := NewFetcher(FetchConfig{Resolver: fakeResolver(t, testNames)})
	cases := []struct {
		url, reason string
	}{
		{srv.URL, "loopback"},
		{"http://localhost:" + port + "/", "loopback"},
		{"http://rebind.test:" + port + "/", "loopback"},
		{"http://0x7f.1:" + port + "/", "loopback"},
		{"http://[::1]:" + port + "/", "loopback"},
		{"http://[::ffff:127.0.0.1]:" + port + "/", "loopback"},
		{"http://[::ffff:7f00:1]:" + port + "/", "loopback"},
		{"http://0.0.0.0:" + port + "/", "unspecified"},
		{"http://169.254.169.254/latest/meta-data/", "link-local"},
		{"http://[fd00:ec2::254]/latest/meta-data/", "private"},
		{"http://10.0.0.1/", "private"},
		{"http://[64:ff9b::7f00:1]:" + port + "/", "loopback (embedded IPv4 127.0.0.1, NAT64)"},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			_, err := f.Fetch(t.Context(), FetchRequest{URL: c.url})
			te := requireToolError(t, err, definitions.PermissionError)
			assert.Equal(t, c.reason, te.Details["reason"])
			u, _ := url.Parse(c.url)
			assert.Contains(t, te.Message, u.Hostname())
			assert.Contains(t, te.Message, c.reason)
			assert.NotEmpty(t, te.Details["address"])
			assert.NotEmpty(t, te.Recovery)
		})
	}
	// Go's resolver does not look up all-numeric names such as the decimal and octal
	// forms of 127.0.0.1 (the C library's would, and the dial check would refuse the
	// address): either way they must not reach the server.
	for _, host := range []string{"2130706433", "0177.0.0.1", "017700000001"} {
		_, err := f.Fetch(t.Context(), FetchRequest{URL: "http://" + host + ":" + port + "/"})
		var te *definitions.ToolError
		require.ErrorAs(t, err, &te, host)
		assert.Contains(t, []string{definitions.PermissionError, definitions.NetworkError}, te.Type, host)
	}
	assert.Zero(t, hits.Load(), "a refused fetch reached the server")
}

func TestFetchAllowHosts(t *testing.T) {
	srv, hits := countingServer(t, serve("text/plain", "intranet docs"))
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	f := NewFetcher(FetchConfig{Resolver: fakeResolver(t, testNames), AllowHosts: []string{"FRONT.test"}})

	r, err := f.Fetch(t.Context(), FetchRequest{URL: "http://front.test:" + port + "/"})
	require.NoError(t, err)
	assert.Equal(t, "intranet docs", r.Content)

	// Another name for the same address is still refused.
	_, err = f.Fetch(t.Context(), FetchRequest{URL: "http://other.test:" + port + "/"})
	requireToolError(t, err, definitions.PermissionError)
	assert.Equal(t, int64(1), hits.Load())
}

func TestFetchRefusesRedirectToInternalAddress(t *testing.T) {
	target, targetHits := countingServer(t, serve("text/plain", "internal"))
	_, targetPort, _ := net.SplitHostPort(target.Listener.Addr().String())
	var location atomic.Value // of string
	front, frontHits := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, location.Load().(string), http.StatusFound)
	})
	_, frontPort, _ := net.SplitHostPort(front.Listener.Addr().String())
	// front.test may reach loopback (it is the attacker's public server in this story);
	// the hosts it redirects to may not.
	f := NewFetcher(FetchConfig{Resolver: fakeResolver(t, testNames), AllowHosts: []string{"front.test"}, CacheEntries: -1})
	targets := []string{
		target.URL + "/",
		"http://localhost:" + targetPort + "/",
		"http://rebind.test:" + targetPort + "/",
		"http://169.254.169.254/latest/meta-data/iam/",
		"http://[::1]:" + targetPort + "/",
	}
	for _, to := range targets {
		t.Run(to, func(t *testing.T) {
			location.Store(to)
			_, err := f.Fetch(t.Context(), FetchRequest{URL: "http://front.test:" + frontPort + "/"})
			requireToolError(t, err, definitions.PermissionError)
		})
	}
	assert.Equal(t, int64(len(targets)), frontHits.Load(), "the allowed first hop must be fetched")
	assert.Zero(t, targetHits.Load(), "a redirect reached the internal server")
}

func TestFetchUsesNoProxy(t *testing.T) {
	f := NewFetcher(FetchConfig{})
	tr, ok := f.client.Transport.(*http.Transport)
	require.True(t, ok)
	assert.Nil(t, tr.Proxy, "a proxy would hide the real address from the dial check")
}

package integration

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCPConformance runs the MCP conformance suite (@modelcontextprotocol/conformance,
// every server scenario; npmTool) against jido mcp --http. The suite speaks HTTP only and
// sends no token, so it goes through a proxy that adds jido's; it fails on a scenario that
// fails and is not in testdata/mcp/conformance-expected-failures.yml (those call the test
// tools, prompts and resources of the suite's reference server), and on one listed that
// passes.
func TestMCPConformance(t *testing.T) {
	bin := npmTool(t, "conformance", "@modelcontextprotocol/conformance", "conformance", "conformance.version")
	baseline, err := filepath.Abs(filepath.Join("testdata", "mcp", "conformance-expected-failures.yml"))
	require.NoError(t, err)

	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "a\n"})
	srv := mcpHTTP(t, "--root", root)
	target, err := url.Parse(srv.url)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	proxy.FlushInterval = -1 // event streams go through as they come
	direct := proxy.Director
	proxy.Director = func(r *http.Request) {
		direct(r)
		r.Header.Set("Authorization", "Bearer "+srv.token)
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "server", "--url", front.URL+target.Path, "--suite", "all",
		"--expected-failures", baseline, "--output-dir", t.TempDir())
	cmd.Dir = t.TempDir()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	report := out.String()
	if i := strings.Index(report, "=== SUMMARY ==="); i >= 0 {
		report = report[i:]
	}
	assert.NoError(t, err, "the conformance suite:\n%s", report)
	for _, scenario := range []string{"server-initialize", "logging-set-level", "ping", "tools-list", "dns-rebinding-protection"} {
		assert.Contains(t, report, "✓ "+scenario+":", "a scenario jido passes")
	}
}

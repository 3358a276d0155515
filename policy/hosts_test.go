package policy

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// webFetch is a call of a web tool: read-only for the project, network by class.
func webFetch(hosts ...string) Request {
	return Request{Tool: "web_fetch", ReadOnly: true, Class: classNetwork, Hosts: hosts}
}

// TestWebCallsAreNetworkClass: a web tool's call changes no file, yet the mode's default
// treats it as a network call: it asks in default and auto-edit mode, is refused in
// read-only mode, and runs in yolo mode.
func TestWebCallsAreNetworkClass(t *testing.T) {
	for mode, want := range map[Mode]Action{ModeDefault: Ask, ModeAutoEdit: Ask, ModeReadOnly: Deny, ModeYolo: Allow, ModePlan: Ask} {
		d := New(mode).Decide(webFetch("docs.example.com"))
		assert.Equal(t, want, d.Action, "mode %s: %s", mode, d.Reason)
	}
	d := New(ModeDefault).Decide(webFetch("docs.example.com"))
	assert.Equal(t, "[[allow]]\ntool = \"web_fetch\"\nhosts = [\"docs.example.com\"]", d.Suggest, "the suggested rule names the host")
	assert.Contains(t, d.Reason, "web_fetch docs.example.com")
}

// TestHostRules: allow rules cover a call only when every host matches, deny and ask rules
// when any does; a rule with hosts never matches a call without; globs cover subdomains.
func TestHostRules(t *testing.T) {
	e := New(ModeDefault)
	_, err := e.Remember(Rule{Action: Allow, Tool: "web_*", Hosts: []string{"*.example.com", "go.dev"}}, ScopeSession)
	require.NoError(t, err)
	_, err = e.Remember(Rule{Action: Deny, Tool: "web_fetch", Hosts: []string{"evil.example.com"}}, ScopeSession)
	require.NoError(t, err)

	assert.Equal(t, Allow, e.Decide(webFetch("docs.example.com")).Action)
	assert.Equal(t, Allow, e.Decide(webFetch("go.dev", "a.b.example.com")).Action)
	assert.Equal(t, Ask, e.Decide(webFetch("go.dev", "example.org")).Action, "one host not covered")
	assert.Equal(t, Ask, e.Decide(webFetch("example.com")).Action, "*.example.com is the subdomains only")
	assert.Equal(t, Deny, e.Decide(webFetch("evil.example.com")).Action)
	assert.Equal(t, Ask, e.Decide(Request{Tool: "web_search", ReadOnly: true, Class: classNetwork}).Action, "a rule with hosts never covers a call without")

	for _, bad := range []string{"", "https://go.dev", "go.dev:443", "go.dev/path", "go dev", "[a"} {
		_, err := e.Remember(Rule{Action: Allow, Tool: "web_fetch", Hosts: []string{bad}}, ScopeSession)
		assert.ErrorContains(t, err, "hosts", "host %q", bad)
	}
}

// TestHostRulesInConfig: hosts are read from and written to config files.
func TestHostRulesInConfig(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	writeText(t, user, "[[allow]]\ntool = \"web_fetch\"\nhosts = [\"docs.example.com\"]\n")
	e, err := Load(user, "")
	require.NoError(t, err)
	assert.Equal(t, Allow, e.Decide(webFetch("docs.example.com")).Action)

	_, err = e.Remember(RuleFor(webFetch("pkg.go.dev")), ScopeUser)
	require.NoError(t, err)
	again, err := Load(user, "")
	require.NoError(t, err)
	assert.Equal(t, Allow, again.Decide(webFetch("pkg.go.dev")).Action, "the remembered rule was written with its hosts")

	writeText(t, user, "[[allow]]\ntool = \"web_fetch\"\nhosts = [\"https://docs.example.com/\"]\n")
	_, err = Load(user, "")
	assert.ErrorContains(t, err, "hosts")
}

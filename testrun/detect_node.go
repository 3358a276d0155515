package testrun

import (
	"encoding/json"
	"io/fs"
	"path"
	"strings"
)

// packageJSON is the part of package.json that Detect reads.
type packageJSON struct {
	Scripts map[string]string `json:"scripts"`
}

// readPackageJSON returns the parsed package.json, nil when it is missing or
// not JSON.
func readPackageJSON(fsys fs.FS, name string) *packageJSON {
	b := readLimited(fsys, name)
	if b == nil {
		return nil
	}
	var p packageJSON
	if json.Unmarshal(b, &p) != nil {
		return nil
	}
	return &p
}

// testScript is the "test" script, "" when there is none or it is npm init's
// placeholder that only fails ("no test specified").
func (p *packageJSON) testScript() string {
	if p == nil {
		return ""
	}
	s := strings.TrimSpace(p.Scripts["test"])
	if strings.Contains(s, "no test specified") {
		return ""
	}
	return s
}

// nodeScript is a test script of the form `node --test [flags] [files]`.
type nodeScript struct {
	flags []string // node flags to keep (reporter flags and --test dropped)
	args  []string // files or glob patterns
}

// nodeValueFlags take their value as the next word when written without "=".
var nodeValueFlags = map[string]bool{
	"-r": true, "--require": true, "--import": true, "--loader": true,
	"--experimental-loader": true, "-C": true, "--conditions": true,
	"--test-reporter": true, "--test-reporter-destination": true,
	"--test-name-pattern": true, "--test-concurrency": true, "--test-timeout": true,
	"--env-file": true,
}

// parseNodeTestScript recognises a test script that plainly runs node's test
// runner: no shell operators, quotes or variables (glob characters are fine:
// Detect expands them), first word node, and --test among its flags. Such a
// script is run directly so that the plan can choose the reporters.
func parseNodeTestScript(s string) (nodeScript, bool) {
	if strings.ContainsAny(s, "&|;<>$`()'\"\\\n") {
		return nodeScript{}, false
	}
	words := strings.Fields(s)
	if len(words) < 2 || words[0] != "node" {
		return nodeScript{}, false
	}
	var ns nodeScript
	sawTest := false
	for i := 1; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") {
			ns.args = append(ns.args, w)
			continue
		}
		name := w
		if eq := strings.IndexByte(w, '='); eq >= 0 {
			name = w[:eq]
		}
		value := ""
		if name == w && nodeValueFlags[w] && i+1 < len(words) {
			i++
			value = words[i]
		}
		switch name {
		case "--test":
			sawTest = true
			continue
		case "--test-reporter", "--test-reporter-destination":
			continue
		}
		ns.flags = append(ns.flags, w)
		if value != "" {
			ns.flags = append(ns.flags, value)
		}
	}
	return ns, sawTest
}

// npmSelectorArgs passes a test name filter through `npm test -- ...` for the
// script runners whose filter flag is known (jest, vitest, mocha). Any other
// script has no known way to select tests.
func npmSelectorArgs(script, selector string) ([]string, bool) {
	words := strings.Fields(script)
	for len(words) > 0 && (words[0] == "npx" || strings.Contains(words[0], "=")) {
		words = words[1:] // npx jest, NODE_ENV=test jest
	}
	if len(words) == 0 {
		return nil, false
	}
	switch path.Base(words[0]) {
	case "jest", "vitest":
		return []string{"--", "-t", selector}, true
	case "mocha":
		return []string{"--", "--grep", selector}, true
	}
	return nil, false
}

// hasGlob reports whether a script argument is a glob pattern.
func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[{") }

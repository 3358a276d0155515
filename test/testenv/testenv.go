// Package testenv lets tests that drive an optional program (emacs, pytest, the MCP
// Inspector, ...) skip where it is missing, saying what is missing and how to install it,
// so that the README's test command passes on a machine with only Go and git. Under
// JIDO_TEST_STRICT=1 (set by .ci/run, which installs everything) such a skip is a failure
// instead, so that CI still proves the real programs.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// StrictVar is the environment variable that turns every missing-program skip into a failure.
const StrictVar = "JIDO_TEST_STRICT"

// installs names the command that installs each optional program on Debian or Ubuntu.
var installs = map[string]string{
	"emacs":   "apt-get install -y emacs-nox",
	"pytest":  "apt-get install -y python3-pytest",
	"node":    "apt-get install -y nodejs npm",
	"npm":     "apt-get install -y npm",
	"cargo":   "apt-get install -y cargo",
	"make":    "apt-get install -y make",
	"rg":      "apt-get install -y ripgrep",
	"git":     "apt-get install -y git",
	"strace":  "apt-get install -y strace",
	"jq":      "apt-get install -y jq",
	"python3": "apt-get install -y python3",
}

// Strict reports whether missing programs fail tests rather than skip them.
func Strict() bool { return os.Getenv(StrictVar) == "1" }

// Program returns the path of the program name on PATH; when it is missing, it ends the
// test through Missing with the command that installs it.
func Program(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	install, ok := installs[name]
	if !ok {
		install = "install the package that provides " + name
	}
	Missing(t, name+" (not on PATH)", install)
	return ""
}

// Missing ends the test because what is missing: a skip naming it and the install command,
// or a failure under JIDO_TEST_STRICT=1.
func Missing(t testing.TB, what, install string) {
	t.Helper()
	msg := fmt.Sprintf("missing program: %s; install: %s", what, install)
	if Strict() {
		t.Fatalf("%s (%s=1 makes a missing program a failure)", msg, StrictVar)
		return
	}
	t.Skip(msg)
}

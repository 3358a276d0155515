package shellclass

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassifyEnv(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   map[string]string
		class Class
		risky []string
	}{
		{"none", nil, ReadOnly, nil},
		{"harmless", map[string]string{"LANG": "C", "TZ": "UTC", "GOTOOLCHAIN": "local", "CI": "1"}, ReadOnly, nil},
		{"BASH_ENV from stdin", map[string]string{"BASH_ENV": "/dev/stdin"}, Mutating, []string{"BASH_ENV"}},
		{"sh's ENV", map[string]string{"ENV": "./x.sh"}, Destructive, []string{"ENV"}},
		{"git injected config", map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor", "GIT_CONFIG_VALUE_0": "rm -rf src"}, Destructive,
			[]string{"GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"}},
		{"git parameters", map[string]string{"GIT_CONFIG_PARAMETERS": "'core.pager=sh'"}, Destructive, []string{"GIT_CONFIG_PARAMETERS"}},
		{"git dir", map[string]string{"GIT_DIR": "planted"}, Destructive, []string{"GIT_DIR"}},
		{"home of dotfiles", map[string]string{"HOME": "."}, Destructive, []string{"HOME"}},
		{"xdg config", map[string]string{"XDG_CONFIG_HOME": "cfg"}, Destructive, []string{"XDG_CONFIG_HOME"}},
		{"git ssh command", map[string]string{"GIT_SSH_COMMAND": "rm -rf /"}, Destructive, []string{"GIT_SSH_COMMAND"}},
		{"pager", map[string]string{"PAGER": "rm -rf src"}, Destructive, []string{"PAGER"}},
		{"harmless pager", map[string]string{"PAGER": "less"}, ReadOnly, nil},
		{"preload", map[string]string{"LD_PRELOAD": "./x.so"}, Mutating, []string{"LD_PRELOAD"}},
		{"any LD_", map[string]string{"LD_BIND_NOW": "1"}, Mutating, []string{"LD_BIND_NOW"}},
		{"python path", map[string]string{"PYTHONPATH": "."}, Mutating, []string{"PYTHONPATH"}},
		{"node options", map[string]string{"NODE_OPTIONS": "--require ./x.js"}, Mutating, []string{"NODE_OPTIONS"}},
		{"java agent", map[string]string{"JAVA_TOOL_OPTIONS": "-javaagent:x.jar"}, Mutating, []string{"JAVA_TOOL_OPTIONS"}},
		{"goflags toolexec", map[string]string{"GOFLAGS": "-toolexec=./x"}, Mutating, []string{"GOFLAGS"}},
		{"rustc wrapper", map[string]string{"RUSTC_WRAPPER": "./x"}, Mutating, []string{"RUSTC_WRAPPER"}},
		{"PATH first", map[string]string{"PATH": "./bin:/usr/bin"}, Mutating, []string{"PATH"}},
		{"PATH appended", map[string]string{"PATH": "$PATH:/usr/local/go/bin"}, ReadOnly, nil},
		{"xtrace prompt", map[string]string{"PS4": "$(id)"}, Destructive, []string{"PS4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, risky := ClassifyEnv(tc.env)
			assert.Equal(t, tc.class, res.Class, "%v", res.Reasons)
			assert.Equal(t, tc.risky, risky)
			if tc.class > ReadOnly {
				assert.NotEmpty(t, res.Reasons)
			}
		})
	}
}

// TestRiskyInlineAssignments: the same variables written before a command raise its class.
func TestRiskyInlineAssignments(t *testing.T) {
	for line, want := range map[string]Class{
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=id git status": Destructive,
		"HOME=. git log":                     Destructive,
		"PYTHONPATH=. python3 -V":            Mutating,
		"export GIT_DIR=x; git log":          Destructive,
		"env GIT_CONFIG_GLOBAL=x git status": Destructive,
		"LANG=C git status":                  ReadOnly,
	} {
		assert.Equal(t, want, Classify(line).Class, line)
	}
}

package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shellclass"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/jido-run/jido/"

// allowedImports is the import picture of DESIGN.md: for each package, the jido packages it may
// import (directly or not). Anything else is an arrow the design forbids.
var allowedImports = map[string][]string{
	"security":                {},
	"tools/definitions":       {"patch"},
	"tools/export":            {"tools/definitions", "patch"},
	"scripts":                 {},
	"luanest":                 {},
	"runtime":                 {"luanest"},
	"edit":                    {"tools/definitions", "patch"},
	"validate":                {"luanest"},
	"ignore":                  {},
	"search":                  {},
	"walk":                    {"security", "ignore"},
	"gocache":                 {},
	"sandbox":                 {"gocache"},
	"shellclass":              {},
	"redact":                  {},
	"web":                     {"tools/definitions", "patch"},
	"serve":                   {"manager", "agent", "worker", "bridge", "profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "scripts", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "policy", "journal", "plan", "planshell", "usertools", "jsoncap"},
	"forge/store":             {"security", "tools/definitions", "patch"},
	"forge/gitops":            {"tools/definitions", "patch"},
	"forge":                   {"forge/store", "forge/gitops", "agent", "chat", "instructions", "termsafe", "manager", "worker", "bridge", "profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "scripts", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "policy", "journal", "plan", "planshell", "usertools", "jsoncap"},
	"web/grounding":           {"web", "tools/definitions", "patch"},
	"jsoncap":                 {},
	"termsafe":                {},
	"testrun":                 {},
	"instructions":            {"testrun"},
	"shell":                   {"sandbox", "gocache", "security"},
	"policy":                  {"tools/definitions", "patch"},
	"tasks":                   {"tools/definitions", "patch"},
	"patch":                   {},
	"buffers":                 {"tools/definitions", "patch", "edit"},
	"journal":                 {"security"},
	"plan":                    {"security", "edit", "tools/definitions", "patch", "walk", "ignore"},
	"planshell":               {},
	"usertools":               {"runtime", "luanest", "tools/definitions", "patch"},
	"tools/builtin":           {"tasks", "buffers", "security", "tools/definitions", "patch", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "journal", "plan", "planshell", "web"},
	"profile":                 {"tools/builtin", "web", "tasks", "buffers", "security", "tools/definitions", "patch", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "journal", "plan", "planshell"},
	"bridge":                  {"profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "journal", "plan", "planshell", "usertools"},
	"worker":                  {"bridge", "profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "journal", "plan", "planshell", "usertools"},
	"manager":                 {"worker", "bridge", "profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "scripts", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "policy", "journal", "plan", "planshell", "usertools", "jsoncap"},
	"agent":                   {"tools/definitions", "patch", "jsoncap"},
	"agent/gemini":            {"agent", "tools/definitions", "patch", "jsoncap"},
	"agent/gemini/geminitest": {},
	"agent/openai":            {"agent", "tools/definitions", "patch", "jsoncap"},
	"agent/openai/openaitest": {},
	"agent/textproto":         {"agent", "tools/definitions", "patch", "jsoncap"},
	"interpret":               {"tools/definitions", "patch"},
	"agent/offline":           {"agent", "interpret", "tools/definitions", "patch", "jsoncap", "testrun"},
	"chat":                    {"instructions", "termsafe", "agent", "manager", "worker", "bridge", "profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "scripts", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "policy", "journal", "plan", "planshell", "usertools", "jsoncap"},
	"mcp":                     {"manager", "worker", "bridge", "profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "tools/export", "scripts", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "policy", "journal", "plan", "planshell", "usertools", "jsoncap"},
	"cmd/jido":                {"serve", "forge", "forge/store", "forge/gitops", "instructions", "termsafe", "mcp", "chat", "agent", "agent/gemini", "agent/openai", "agent/textproto", "agent/offline", "interpret", "manager", "worker", "bridge", "profile", "tools/builtin", "web", "web/grounding", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "tools/export", "scripts", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "policy", "journal", "plan", "planshell", "usertools", "jsoncap"},
	"test/testenv":            {},
	"test/loadgen":            {"manager", "worker", "bridge", "profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "scripts", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "policy", "journal", "plan", "planshell", "usertools", "jsoncap"},
	"test/bench/loadbench":    {"test/loadgen", "manager", "worker", "bridge", "profile", "tools/builtin", "web", "tasks", "buffers", "security", "runtime", "tools/definitions", "patch", "scripts", "edit", "validate", "luanest", "walk", "ignore", "search", "shell", "sandbox", "gocache", "shellclass", "redact", "testrun", "policy", "journal", "plan", "planshell", "usertools", "jsoncap"},
}

func TestImportDirection(t *testing.T) {
	for pkg, allowed := range allowedImports {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.Command("go", "list", "-deps", module+pkg).Output()
			require.NoError(t, err)
			for _, dep := range strings.Fields(string(out)) {
				rel, ok := strings.CutPrefix(dep, module)
				if !ok || rel == pkg {
					continue
				}
				assert.Contains(t, allowed, rel, "%s must not import %s", pkg, rel)
			}
		})
	}
}

// TestBridgeIsLuaAdaptationOnly: bridge imports the Lua runtime, the tools it exposes,
// the user tools and the profiles jido.call speaks, nothing of what the tools do (that is
// tools/builtin's).
func TestBridgeIsLuaAdaptationOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, module+"bridge").Output()
	require.NoError(t, err)
	var direct []string
	for _, dep := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(dep, module); ok {
			direct = append(direct, rel)
		}
	}
	assert.ElementsMatch(t, []string{"profile", "runtime", "tools/builtin", "tools/definitions", "usertools"}, direct)
}

// forbiddenInTools are host file-system calls that would bypass security.Root.
var forbiddenInTools = regexp.MustCompile(`\bos\.(Open|OpenFile|ReadFile|WriteFile|Create|Remove|RemoveAll|Rename|Mkdir|MkdirAll|Stat|Lstat|ReadDir|DirFS|Symlink|Link)\(|filepath\.Join\(`)

func TestToolCodeUsesOnlySecurityRoot(t *testing.T) {
	for _, dir := range []string{"bridge", "profile", "tools/builtin", "tasks", "patch", "buffers", "manager", "scripts", "tools/definitions", "edit", "validate", "walk", "ignore", "search", "shellclass", "redact", "testrun", "plan", "planshell"} {
		files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, dir)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			for i, line := range strings.Split(string(src), "\n") {
				assert.NotRegexp(t, forbiddenInTools, line, "%s:%d bypasses security.Root", f, i+1)
			}
		}
	}
}

// TestShellSecretsMatchTheFileTools: the shell classifier keeps its own copy of the secret
// patterns (it imports nothing of jido); it must be the file tools' list.
func TestShellSecretsMatchTheFileTools(t *testing.T) {
	def := security.DefaultPolicy()
	assert.Equal(t, def.Secret, shellclass.SecretFiles)
	assert.Equal(t, def.SecretExceptions, shellclass.SecretExceptions)
}

package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"
)

// repoRoot is the repository this test package sits in.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	return root
}

// readmeBlock is one fenced block of README.md.
type readmeBlock struct {
	lang, text string
	line       int // of the opening fence
}

// readmeBlocks returns README.md's fenced blocks.
func readmeBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	require.NoError(t, err)
	var blocks []readmeBlock
	var cur *readmeBlock
	var body strings.Builder
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &readmeBlock{lang: strings.TrimPrefix(line, "```"), line: i + 1}
			body.Reset()
		case cur != nil && line == "```":
			cur.text = body.String()
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		}
	}
	require.Nil(t, cur, "README.md has an unclosed block")
	return blocks
}

// commandLines splits a shell block into its command lines as written (a line continued
// with \ or a quote spanning lines is one), without their comments.
func commandLines(t *testing.T, b readmeBlock) []string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(b.text), "README.md")
	require.NoError(t, err, "the shell block at README.md:%d", b.line)
	var lines []string
	for _, st := range f.Stmts {
		lines = append(lines, b.text[st.Pos().Offset():st.End().Offset()])
	}
	return lines
}

// readmeRun is what one command line of the README did.
type readmeRun struct {
	stdout, stderr string
	code           int
}

// json decodes the run's stdout as one JSON object.
func (r readmeRun) json(t *testing.T) map[string]any {
	t.Helper()
	return decodeJSON(t, r.stdout)
}

// readmeEnv is the fixture the README's commands run in, in order: a copy of the
// repository (what a reader has), the binaries installed on PATH, and local stand-ins for
// the network services some lines name.
type readmeEnv struct {
	dir  string   // the copy of the repository: the commands' working directory
	bin  string   // GOBIN: where go install puts the binaries
	env  []string // added to the test's environment
	fake *openaitest.Server

	forgeDir string   // the repository of the Forge lines (made by setUpForge)
	forgeEnv []string // their environment: a config naming their model
}

// readmeCase is how the test runs one command line of the README and checks that it does
// what the text around it says.
type readmeCase struct {
	// rewrite, when set, gives the line as run: a placeholder filled (/some/project), a
	// local server for a remote one. The README's own text is what the table is keyed by.
	rewrite func(e *readmeEnv, line string) string
	stdin   string
	// server: the line starts a server; ready matches its stderr once it listens, and
	// then checks it (the run holds what the server printed so far).
	server bool
	ready  *regexp.Regexp
	// check checks the run's outcome (exit status 0 unless it says otherwise).
	check func(t *testing.T, e *readmeEnv, r readmeRun)
	// skip says why the line is not run here, and what runs it instead.
	skip string
	// forge runs the line in a git repository of its own, with a model behind Forge's
	// agents named in the user's config ([model]), as the README says to give one.
	forge bool
}

// readmeCases are the command lines of the README, by their text.
var readmeCases = map[string]readmeCase{
	`go install ./cmd/...`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			for _, bin := range []string{"jido", "jido-sandbox"} {
				assert.FileExists(t, filepath.Join(e.gobin(), bin))
			}
		},
	},
	`export PATH="$(go env GOPATH)/bin:$PATH"`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {},
	},
	`go run ./cmd/jido ask "what is in this directory?"`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "README.md")
			assert.Contains(t, r.stdout, "go.mod")
		},
	},
	`go run ./cmd/jido chat`: {
		stdin: "list the files\n",
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "offline")
			assert.Contains(t, r.stdout, "README.md")
		},
	},
	`go run ./cmd/jido ask --json "read go.mod"`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			out := r.json(t)
			assert.Contains(t, out["answer"], "module github.com/jido-run/jido")
			assert.Contains(t, fmt.Sprint(out["calls"]), "read_file")
		},
	},
	`go run ./cmd/jido chat --provider openai --base-url http://localhost:11434/v1 --model qwen2.5-coder`: {
		rewrite: func(e *readmeEnv, line string) string {
			return strings.Replace(line, "http://localhost:11434/v1", e.fake.BaseURL(), 1)
		},
		stdin: "say hello\n",
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "hello from the model")
		},
	},
	`go run ./cmd/jido chat --provider openai --text-protocol ...`: {
		rewrite: func(e *readmeEnv, line string) string {
			return strings.Replace(line, "...", "--base-url "+e.fake.BaseURL()+" --model m", 1)
		},
		stdin: "say hello\n",
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "hello from the model")
		},
	},
	`go run ./cmd/jido call list_dir '{"path":"."}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Equal(t, ".", r.json(t)["result"].(map[string]any)["path"])
		},
	},
	`go build -o . ./cmd/jido ./cmd/jido-sandbox`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.FileExists(t, filepath.Join(e.dir, "jido"))
			assert.FileExists(t, filepath.Join(e.dir, "jido-sandbox"))
			status := e.git(t, "status", "--porcelain")
			assert.Empty(t, status, "git ignores both binaries")
		},
	},
	`./jido tools`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) { assert.Contains(t, r.stdout, `"read_file"`) },
	},
	`./jido tools --format openai`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) { assert.Contains(t, r.stdout, `"function"`) },
	},
	`./jido call read_file '{"path":"README.md","limit":5}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			res := r.json(t)["result"].(map[string]any)
			assert.Equal(t, float64(5), res["end_line"])
		},
	},
	`echo '{"path":"notes.txt","content":"hi\n"}' | ./jido call --yes write_file -`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Equal(t, "hi\n", e.read(t, "notes.txt"))
		},
	},
	"./jido eval -e 'local r = jido.read_file{path=\"go.mod\"} return r.total_lines' \\\n            -e 'return os'": {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			require.Len(t, lines, 2, "one JSON line per snippet")
			assert.Equal(t, true, decodeJSON(t, lines[0])["ok"])
			assert.Nil(t, decodeJSON(t, lines[1])["value"], "os is not there")
		},
	},
	`./jido call --root /some/project glob '{"pattern":"**/*.go"}'`: {
		rewrite: func(e *readmeEnv, line string) string {
			return strings.Replace(line, "/some/project", filepath.Join(e.dir, "jsoncap"), 1)
		},
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, `"jsoncap.go"`)
		},
	},
	`./jido call search '{"query":"func main","include_paths":["*.go"]}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) { assert.Contains(t, r.stdout, "cmd/jido/main.go") },
	},
	`./jido call list_files '{"directory":".","max_depth":2}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) { assert.Contains(t, r.stdout, "cmd/jido") },
	},
	`./jido call --yes run_shell '{"command":"go version && ls | head -3"}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.json(t)["result"].(map[string]any)["stdout"], "go version go1.")
		},
	},
	`./jido call --yes run_tests '{"path":"jsoncap","selector":"TestCap"}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			res := r.json(t)["result"].(map[string]any)
			assert.GreaterOrEqual(t, res["passed"], float64(3), "%v", res)
			assert.Equal(t, float64(0), res["failed"])
		},
	},
	`./jido undo --list && ./jido undo`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "notes.txt")
			assert.NoFileExists(t, filepath.Join(e.dir, "notes.txt"), "the write is undone")
		},
	},
	`./jido trust`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) { assert.Contains(t, r.stdout, "trusted") },
	},
	`./jido rules`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "gofmt -l", "the trusted config's rule")
		},
	},
	"./jido eval --yes -e 'assert(jido.read_file{path=\"go.mod\"})\n  return jido.edit_file{path=\"go.mod\", old_string=\"module\", new_string=\"module  \", dry_run=true}.diff'": {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.json(t)["value"], "+module   github.com/jido-run/jido")
			assert.NotContains(t, e.read(t, "go.mod"), "module  ", "a dry run")
		},
	},
	`./jido eval -e 'return jido.read_file("go.mod", {limit = 3}).content'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.json(t)["value"], "module github.com/jido-run/jido")
		},
	},
	`./jido call --session s read_file '{"path":"go.mod"}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) { assert.Equal(t, true, r.json(t)["ok"]) },
	},
	`./jido call --session s --yes edit_file '{"path":"go.mod","old_string":"toolchain go","new_string":"toolchain  go"}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Equal(t, true, r.json(t)["ok"], "the session read it: %s", r.stdout)
			assert.Contains(t, e.read(t, "go.mod"), "toolchain  go")
		},
	},
	`./jido call --cwd cmd/jido list_dir '{}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Equal(t, "cmd/jido", r.json(t)["result"].(map[string]any)["path"])
		},
	},
	`./jido call --yes web_fetch '{"url":"https://go.dev/doc/"}'`: {
		rewrite: func(e *readmeEnv, line string) string {
			return strings.Replace(line, "https://go.dev/doc/", e.site(), 1) + " --web-allow 127.0.0.1"
		},
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			res := r.json(t)["result"].(map[string]any)
			assert.Contains(t, res["content"], "# Documentation")
			assert.NotContains(t, res["content"], "ghp_", "credentials redacted")
		},
	},
	`./jido call --yes --search-url http://localhost:8888 web_search '{"query":"go generics"}'`: {
		rewrite: func(e *readmeEnv, line string) string {
			return strings.Replace(line, "http://localhost:8888", e.searx(), 1)
		},
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "q=go generics")
		},
	},
	"./jido eval --mode plan --yes -e 'jido.write_file{path=\"NOTES.md\", content=\"plan\\n\"}\n  jido.run_shell{command=\"sed -i s/plan/planned/ NOTES.md\"}\n  return jido.plan_diff{}.diff'": {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.json(t)["value"], "+planned")
			assert.NoFileExists(t, filepath.Join(e.dir, "NOTES.md"), "a plan writes nothing")
		},
	},
	`jido tools --profile emacs --format openai`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) { assert.Contains(t, r.stdout, `"file_read"`) },
	},
	`jido call --profile claude Read '{"file_path": "go.mod"}'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "module github.com/jido-run/jido")
		},
	},
	`jido eval --profile forge -e 'return jido.call("read", {path = "go.mod", range = {1, 3}})'`: {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "module github.com/jido-run/jido")
		},
	},
	`jido forge plan "add a /health endpoint with tests"`: {
		forge: true,
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Regexp(t, `^run \S+\n$`, r.stdout)
			assert.Empty(t, gitOut(t, e.forgeDir, "status", "--porcelain", "--untracked-files=all"), "the run's artifacts are no change of the user's")
		},
	},
	`jido forge run`: {
		forge: true,
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Regexp(t, `(?m)^A\s+1\s+MERGED`, r.stdout, "it ends with its summary")
			assert.FileExists(t, filepath.Join(e.forgeDir, "health.go"), "merged into the current branch")
			assert.FileExists(t, filepath.Join(e.forgeDir, "health_test.go"))
		},
	},
	`jido forge status`: {
		forge: true,
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Regexp(t, `(?m)^B\s+1\s+MERGED`, r.stdout)
		},
	},
	`jido forge events`: {
		forge: true,
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, `"type":"task.status"`)
			assert.Contains(t, r.stdout, `"tool":"emit_walkthrough"`)
		},
	},
	`jido mcp --http 127.0.0.1:8765 --root ~/src/project`: {
		rewrite: func(e *readmeEnv, line string) string {
			return strings.NewReplacer("8765", e.port(), "~/src/project", e.dir).Replace(line)
		},
		server: true,
		ready:  mcpListening,
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			m := mcpListening.FindStringSubmatch(r.stderr)
			require.NotNil(t, m, r.stderr)
			body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}`
			req, err := http.NewRequest("POST", m[1], strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+m[2])
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			assert.Equal(t, http.StatusOK, resp.StatusCode, string(got))
			assert.Contains(t, string(got), `"serverInfo"`)
		},
	},
	`jido mcp --socket $XDG_RUNTIME_DIR/jido.sock --root ~/src/project`: {
		rewrite: func(e *readmeEnv, line string) string { return strings.Replace(line, "~/src/project", e.dir, 1) },
		server:  true,
		ready:   regexp.MustCompile(`jido\.sock`),
		check:   func(t *testing.T, e *readmeEnv, r readmeRun) {},
	},
	"curl --unix-socket $XDG_RUNTIME_DIR/jido.sock http://jido/mcp -H 'Content-Type: application/json' \\\n  -H 'Accept: application/json, text/event-stream' \\\n  -d '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"curl\",\"version\":\"1\"}}}'": {
		check: func(t *testing.T, e *readmeEnv, r readmeRun) { assert.Contains(t, r.stdout, `"serverInfo"`) },
	},
	`go tool gotestsum -- -race -count=1 -timeout 30m ./...`: {
		skip: "the test command runs this test: .ci/run runs it as written",
	},
	`go run ./test/bench/findbench -rounds 11`: {
		rewrite: func(e *readmeEnv, line string) string {
			return strings.Replace(line, "-rounds 11", "-rounds 1 -corpus "+filepath.Join(e.dir, "agent"), 1)
		},
		check: func(t *testing.T, e *readmeEnv, r readmeRun) {
			assert.Contains(t, r.stdout, "search: literal 'func main'")
			assert.Contains(t, r.stdout, "ratio")
		},
	},
}

// mcpListening is what jido mcp --http prints once it listens: its address and its token.
var mcpListening = regexp.MustCompile(`(http://127\.0\.0\.1:\d+/mcp)[\s\S]*Bearer ([0-9a-f]{32,})`)

// TestREADMECommands runs every command line of README.md, in order, in a copy of the
// repository with jido installed, and checks that each does what the README says; a line
// the table does not know, or a table entry the README lost, fails. The other blocks of
// the README are checked too: its TOML loads as a config, its JSON parses, its Lua tool
// loads.
func TestREADMECommands(t *testing.T) {
	t.Parallel()
	testenv.Program(t, "git")
	e := newReadmeEnv(t)
	seen := map[string]bool{}
	for _, b := range readmeBlocks(t) {
		switch b.lang {
		case "sh":
			for _, line := range commandLines(t, b) {
				seen[line] = true
				c, ok := readmeCases[line]
				if !assert.True(t, ok, "README.md:%d: a command line no test runs: add it to readmeCases:\n%s", b.line, line) {
					continue
				}
				e.run(t, line, c)
			}
		case "toml":
			checkTOML(t, b)
		case "json":
			checkJSON(t, b)
		case "lua":
			checkLuaTool(t, e, b)
		}
	}
	for line := range readmeCases {
		assert.True(t, seen[line], "readmeCases has a line README.md no longer has:\n%s", line)
	}
	if ci, err := os.ReadFile(filepath.Join(repoRoot(t), ".ci", "run")); assert.NoError(t, err) {
		assert.Contains(t, string(ci), "go tool gotestsum -- -race -count=1 -timeout 30m ./...", "CI runs the README's test command")
	}
}

// newReadmeEnv copies the repository's tracked files into a new git repository with a
// project config to trust, and starts the stand-ins for the network.
func newReadmeEnv(t *testing.T) *readmeEnv {
	t.Helper()
	e := &readmeEnv{dir: t.TempDir(), bin: t.TempDir()}
	files, err := exec.Command("git", "-C", repoRoot(t), "ls-files", "-z").Output()
	require.NoError(t, err)
	for name := range strings.SplitSeq(strings.TrimRight(string(files), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(repoRoot(t), name))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		require.NoError(t, err)
		info, err := os.Stat(filepath.Join(repoRoot(t), name))
		require.NoError(t, err)
		dst := filepath.Join(e.dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		require.NoError(t, os.WriteFile(dst, data, info.Mode().Perm()))
	}
	writeTree(t, e.dir, map[string]string{".jido/config.toml": "[[allow]]\ntool = \"run_shell\"\ncommand = \"gofmt -l\"\n"})
	e.git(t, "init", "-q")
	e.git(t, "add", "-A")
	e.git(t, "-c", "user.name=readme", "-c", "user.email=readme@example.com", "commit", "-qm", "the repository as a reader has it")

	e.fake = openaitest.NewServer(
		openaitest.Step{Text: []string{"hello from the model"}}, // the native protocol
		openaitest.Step{Text: []string{"hello from the model"}}, // the text protocol
	)
	t.Cleanup(e.fake.Close)
	bin := filepath.Dir(jidoBin)
	runtimeDir, err := os.MkdirTemp("", "rt-") // short: a socket path has at most 107 bytes
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(runtimeDir) })
	e.env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GOBIN=" + e.bin, "XDG_RUNTIME_DIR=" + runtimeDir,
		"GEMINI_API_KEY=", "GOOGLE_API_KEY=", "OPENAI_API_KEY=", "EXA_API_KEY=",
	}
	return e
}

// gobin is where go install puts the binaries in the fixture.
func (e *readmeEnv) gobin() string { return e.bin }

// git runs git in the fixture and returns its output.
func (e *readmeEnv) git(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", e.dir}, args...)...).CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}

// read returns a file of the fixture.
func (e *readmeEnv) read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.dir, name))
	require.NoError(t, err)
	return string(data)
}

// site serves a documentation page (with a credential in it) on the loopback and returns
// its address.
func (e *readmeEnv) site() string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Docs</title></head><body><nav>menu</nav><h1>Documentation</h1><p>token ghp_`+strings.Repeat("a1B2", 9)+`</p></body></html>`)
	}))
	return srv.URL + "/doc/"
}

// searx serves SearXNG's JSON search on the loopback and returns its address.
func (e *readmeEnv) searx() string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{{"title": "Go", "url": "https://go.dev/", "content": "q=" + r.URL.Query().Get("q")}}})
	}))
	return srv.URL
}

// port is a free loopback port.
func (e *readmeEnv) port() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "0"
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

// run runs one command line of the README as its case says.
func (e *readmeEnv) run(t *testing.T, line string, c readmeCase) {
	t.Helper()
	if c.skip != "" {
		t.Logf("not run here: %s\n  %s", line, c.skip)
		return
	}
	cmdline := line
	if c.rewrite != nil {
		cmdline = c.rewrite(e, line)
	}
	if strings.HasPrefix(cmdline, "curl ") {
		testenv.Program(t, "curl")
	}
	if strings.Contains(cmdline, "findbench") {
		testenv.Program(t, "rg")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	cmd := exec.CommandContext(ctx, "bash", "-c", cmdline)
	cmd.Dir, cmd.Env = e.dir, append(os.Environ(), e.env...)
	if c.forge {
		e.setUpForge(t)
		cmd.Dir, cmd.Env = e.forgeDir, append(cmd.Env, e.forgeEnv...)
	}
	cmd.Stdin = strings.NewReader(c.stdin)
	start := time.Now()
	defer func() { t.Logf("%v\t%s", time.Since(start).Round(time.Millisecond), line) }()
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	if !c.server {
		defer cancel()
		cmd.Stderr = &stderr
		err := cmd.Run()
		r := readmeRun{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
		if assert.NoError(t, err, "README line:\n%s\nran as:\n%s\nstdout: %s\nstderr: %s", line, cmdline, r.stdout, r.stderr) {
			c.check(t, e, r)
		}
		return
	}
	errPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cancel(); cmd.Wait() })
	seen := make(chan string, 1)
	go func() {
		var got strings.Builder
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			got.WriteString(sc.Text() + "\n")
			if c.ready.MatchString(got.String()) {
				seen <- got.String()
				io.Copy(io.Discard, errPipe)
				return
			}
		}
		seen <- got.String()
	}()
	select {
	case printed := <-seen:
		require.Regexp(t, c.ready, printed, "the server started by\n%s\nprinted", cmdline)
		c.check(t, e, readmeRun{stderr: printed})
	case <-time.After(2 * time.Minute):
		t.Fatalf("the server started by %s said nothing", cmdline)
	}
}

// setUpForge makes, once, the repository the README's Forge lines run in, and a fake model
// behind its agents, one script each, named in a config of the user's: the Captain plans
// a handler and its test as two tasks, each task's agent writes its file and reports, the
// Refinery merges both.
func (e *readmeEnv) setUpForge(t *testing.T) {
	t.Helper()
	if e.forgeDir != "" {
		return
	}
	e.forgeDir = forgeRepo(t)
	task := func(id, title string, deps ...string) string {
		d, _ := json.Marshal(deps)
		doc := "---\nid: " + id + "\ntype: 1\ndependencies: " + string(d) + "\ntitle: " + title + "\n---\n" + title + ".\n"
		arg, _ := json.Marshal(map[string]string{"taskId": id, "content": doc})
		return string(arg)
	}
	work := func(file, content string) openaitest.Step {
		arg, _ := json.Marshal(map[string]string{"path": file, "content": content})
		return calls("write", string(arg), "emit_walkthrough", `{"walkthrough":{"summary":"wrote `+file+`","filesTouched":["`+file+`"]}}`)
	}
	srv := openaitest.NewRoutedServer(routeForge, map[string][]openaitest.Step{
		"captain:-": {
			calls("create_spec", `{"filename":"health.md","content":"# /health\nA handler and its test.\n"}`,
				"create_task", task("A", "write the /health handler"), "create_task", task("B", "write its test"),
				"set_dag", `{"dag":{"tasks":[{"id":"A","dependencies":[]},{"id":"B","dependencies":[]}]}}`),
			answer("Planned two tasks."),
		},
		"type1:A": {work("health.go", "package main\n"), answer("A done.")},
		"type1:B": {work("health_test.go", "package main\n"), answer("B done.")},
		"refinery:-": {
			calls("merge_branches", `{"sourceBranches":["forge/A/1","forge/B/1"],"targetBranch":"main"}`),
			answer("Merged."),
		},
	})
	t.Cleanup(srv.Close)
	config := t.TempDir()
	writeTree(t, config, map[string]string{"jido/config.toml": "[model]\nprovider = \"openai\"\nname = \"fake\"\nbase_url = \"" + srv.BaseURL() + "\"\n"})
	e.forgeEnv = []string{"XDG_CONFIG_HOME=" + config}
}

// checkTOML loads a TOML block as a config file of jido's.
func checkTOML(t *testing.T, b readmeBlock) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	require.NoError(t, os.WriteFile(path, []byte(b.text), 0o600))
	_, err := policy.Load(path, "")
	assert.NoError(t, err, "the TOML block at README.md:%d", b.line)
}

// checkJSON parses a JSON block (an MCP client's configuration).
func checkJSON(t *testing.T, b readmeBlock) {
	t.Helper()
	var v map[string]any
	assert.NoError(t, json.Unmarshal([]byte(b.text), &v), "the JSON block at README.md:%d", b.line)
	assert.Contains(t, v, "mcpServers")
}

// checkLuaTool loads a Lua block as a user's tool and calls it.
func checkLuaTool(t *testing.T, e *readmeEnv, b readmeBlock) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tool.lua"), []byte(b.text), 0o644))
	name := regexp.MustCompile(`name = "(\w+)"`).FindStringSubmatch(b.text)
	require.NotNil(t, name, "the Lua block at README.md:%d names its tool", b.line)
	r := runJido(t, "", "call", "--root", e.dir, "--tools", dir, name[1], "{}")
	assert.Equal(t, 0, r.code, "the Lua tool at README.md:%d: %s %s", b.line, r.stdout, r.stderr)
}

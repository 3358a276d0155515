package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeText(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

const userConf = `# user settings
mode = "auto-edit"

[[deny]]
tool = "run_shell"
class = "network"

[roles.reviewer]
tools = ["read_file", "search"]

[[allow]]
tool = "*_file"
paths = ["src/**"]
`

const projectConf = `mode = "plan"

# never touch secrets
[[deny]]
paths = [".env", "secrets/**"]

[[ask]]
tool = "run_shell"
command = "rm"

[roles.reader]
tools = ["read_file"]
`

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	user, proj := filepath.Join(dir, "user.toml"), filepath.Join(dir, "p", "jido.toml")
	writeText(t, user, userConf)
	writeText(t, proj, projectConf)
	e, err := Load(user, proj)
	require.NoError(t, err)
	assert.Equal(t, ModePlan, e.Mode(), "project mode overrides")

	got := []string{}
	for _, r := range e.Rules() {
		got = append(got, fmt.Sprintf("%s %s %s %s", r.ID, r.Action, r.Scope, r.Source))
	}
	assert.Equal(t, []string{
		"project-1 deny project " + proj + ":4",
		"user-1 deny user " + user + ":4",
		"project-2 ask project " + proj + ":7",
		"user-2 allow user " + user + ":11",
	}, got)

	d := e.Decide(Request{Tool: "write_file", Mutating: true, Paths: []string{"secrets/key"}})
	assert.Equal(t, Deny, d.Action)
	assert.Equal(t, fmt.Sprintf("deny rule project-1 (%s:4) matches write_file secrets/key", proj), d.Reason)
	assert.Equal(t, Deny, e.Decide(shellNet).Action)
	d = e.Decide(shellDestr)
	assert.Equal(t, Deny, d.Action, "network class denies destructive too")
	assert.Equal(t, "user-1", d.Rule.ID)
	d = e.Decide(Request{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("rm", "x")}})
	assert.Equal(t, Ask, d.Action)
	assert.Equal(t, "project-2", d.Rule.ID)

	tools, ok := e.Role("reviewer")
	assert.True(t, ok)
	assert.Equal(t, []string{"read_file", "search"}, tools)
	tools, _ = e.Role("reader")
	assert.Equal(t, []string{"read_file"}, tools, "project overrides default role")
}

func TestLoadMissingAndEmpty(t *testing.T) {
	dir := t.TempDir()
	e, err := Load("", filepath.Join(dir, "nope.toml"))
	require.NoError(t, err)
	assert.Equal(t, ModeDefault, e.Mode())
	assert.Empty(t, e.Rules())

	_, err = Load(dir, "")
	assert.ErrorContains(t, err, "policy: read "+dir)

	empty := filepath.Join(dir, "empty.toml")
	writeText(t, empty, "# nothing\n")
	e, err = Load(empty, empty+".missing")
	require.NoError(t, err)
	assert.Empty(t, e.Rules())
}

func TestRoles(t *testing.T) {
	e := New(ModeDefault)
	reader, ok := e.Role("reader")
	require.True(t, ok)
	assert.ElementsMatch(t, []string{"read_file", "list_dir", "list_files", "glob", "search", "file_exists", "todo_write", "task",
		"buffer_create", "buffer_append", "buffer_edit", "buffer_get_content", "buffer_list", "goto_line", "search_in_buffer", "current_directory",
		"git_status", "git_diff", "git_log", "git_show", "web_fetch", "web_search"}, reader)
	editor, _ := e.Role("editor")
	assert.ElementsMatch(t, append(append([]string{}, reader...), "write_file", "edit_file", "edit_region", "multi_edit", "apply_patch", "delete_file", "create_directory", "move_file", "buffer_save", "plan_diff", "plan_apply", "plan_discard"), editor)
	runner, _ := e.Role("runner")
	assert.ElementsMatch(t, append(append([]string{}, reader...), "run_shell", "job_output", "job_kill", "run_tests"), runner)
	full, ok := e.Role("full")
	assert.True(t, ok)
	assert.Nil(t, full)
	_, ok = e.Role("nobody")
	assert.False(t, ok)

	// The returned slice is a copy.
	reader[0] = "x"
	again, _ := e.Role("reader")
	assert.NotEqual(t, "x", again[0])

	// Config overrides and adds; an empty list is no tools, not all tools.
	require.NoError(t, e.loadBytes(ScopeUser, "u.toml", []byte(
		"[roles.full]\ntools = []\n[roles.ops]\ntools = [\"run_shell\"]\n[roles]\nlint = {tools = [\"run_tests\"]}\n")))
	full, ok = e.Role("full")
	assert.True(t, ok)
	assert.NotNil(t, full)
	assert.Empty(t, full)
	ops, _ := e.Role("ops")
	assert.Equal(t, []string{"run_shell"}, ops)
	lint, _ := e.Role("lint")
	assert.Equal(t, []string{"run_tests"}, lint)
}

func TestBadConfigs(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"unknown key", "[[allow]]\ntool = \"x\"\nfoo = 1\n", `3:1: unknown key "allow.foo"`},
		{"unknown top key", "\nverbose = true\n", `2:1: unknown key "verbose"`},
		{"unknown role key", "[roles.r]\ntools = []\nextra = 1\n", `3:1: unknown key "roles.r.extra"`},
		{"bad class", "[[deny]]\ntool = \"run_shell\"\nclass = \"nuclear\"\n",
			`3:1: deny rule: class: bad class "nuclear" (want read-only, mutating, network or destructive)`},
		{"bad class inline", "allow = [\n  {tool = \"x\"},\n  {tool = \"y\", class = \"z\"},\n]\n", `3:16: allow rule: class: bad class "z" (want read-only, mutating, network or destructive)`},
		{"bad tool glob", "[[ask]]\n  tool = \"run_[\"\n", `2:3: ask rule: tool: bad glob "run_["`},
		{"bad path glob", "[[allow]]\npaths = [\"ok/**\", \"bad[\"]\n", `2:19: allow rule: paths: bad glob "bad["`},
		{"empty path glob", "[[allow]]\npaths = [\"\"]\n", `2:10: allow rule: paths: empty glob`},
		{"blank command", "\n\n[[deny]]\ncommand = \" \"\n", `4:1: deny rule: command: blank command`},
		{"bad mode", "# c\nmode = \"fast\"\n", `2:1: unknown mode "fast" (want default, auto-edit, yolo, plan or read-only)`},
		{"wrong type string", "[[allow]]\ntool = 3\n", `2:8: wrong type for "allow.tool": want a string`},
		{"wrong type paths", "[[allow]]\npaths = \"src\"\n", `2:9: wrong type for "allow.paths": want an array of strings`},
		{"wrong type rules", "allow = true\n", `1:9: wrong type for "allow": want an array of tables`},
		{"wrong type mode", "mode = [1]\n", `1:8: wrong type for "mode": want a string`},
		{"wrong type roles", "roles = 1\n", `1:9: wrong type for "roles": want a table`},
		{"wrong type role", "[roles]\nx = 1\n", `2:5: wrong type for "roles.x": want a table`},
		{"wrong type tools", "[roles.x]\ntools = [1]\n", `2:10: wrong type for "roles.x.tools": want an array of strings`},
		{"role without tools", "\n[roles.x]\n", `2:1: role "x" has no tools key`},
		{"syntax", "[[allow]\n", `1:8: expected ']]' to close array table name`},
		{"duplicate key", "[[allow]]\ntool = \"a\"\ntool = \"b\"\n", `3:1: key tool is already defined`},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, project := range []bool{false, true} {
				path := filepath.Join(dir, fmt.Sprintf("c%d.toml", i))
				writeText(t, path, c.text)
				var err error
				if project {
					_, err = Load("", path)
				} else {
					_, err = Load(path, "")
				}
				assert.EqualError(t, err, path+":"+c.want)
			}
		})
	}
}

func TestRememberToFiles(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "home", ".config", "jido", "config.toml")
	proj := filepath.Join(dir, "repo", ".jido", "policy.toml")
	writeText(t, proj, projectConf)

	e, err := Load(user, proj)
	require.NoError(t, err)
	u, err := e.Remember(Rule{Action: Allow, Tool: "run_shell", Command: "git push"}, ScopeUser)
	require.NoError(t, err)
	assert.Equal(t, Rule{ID: "user-1", Action: Allow, Tool: "run_shell", Command: "git push", Scope: ScopeUser, Source: user + ":1"}, u)
	assert.Equal(t, "[[allow]]\ntool = \"run_shell\"\ncommand = \"git push\"\n", readText(t, user), "file and parent dirs created")

	p, err := e.Remember(Rule{Action: Deny, Tool: "write_file", Paths: []string{"go.sum", "vendor/**"}, Class: "mutating"}, ScopeProject)
	require.NoError(t, err)
	assert.Equal(t, "project-3", p.ID)
	assert.Equal(t, proj+":14", p.Source)
	assert.Equal(t, projectConf+"\n[[deny]]\ntool = \"write_file\"\npaths = [\"go.sum\", \"vendor/**\"]\nclass = \"mutating\"\n", readText(t, proj), "existing content and comments kept")

	// Active immediately.
	assert.Equal(t, Deny, e.Decide(Request{Tool: "write_file", Mutating: true, Paths: []string{"vendor/x/y.go"}}).Action)

	// Round trip through Load gives the same rules.
	e2, err := Load(user, proj)
	require.NoError(t, err)
	assert.Equal(t, e.Rules(), e2.Rules())
	assert.Equal(t, e.Mode(), e2.Mode())

	// No temp files are left behind; permissions are kept.
	entries, err := os.ReadDir(filepath.Dir(proj))
	require.NoError(t, err)
	assert.Len(t, entries, 1)
	fi, err := os.Stat(proj)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
}

func TestRememberBadFile(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p.toml")
	e, err := Load("", proj)
	require.NoError(t, err)
	writeText(t, proj, "[[allow]\n") // broken after Load
	_, err = e.Remember(Rule{Action: Allow, Tool: "x"}, ScopeProject)
	assert.EqualError(t, err, "policy: not changing a bad config file: "+proj+":1:8: expected ']]' to close array table name")
	assert.Equal(t, "[[allow]\n", readText(t, proj))
	assert.Empty(t, e.Rules())

	// A file using the inline form cannot take an appended table.
	writeText(t, proj, "allow = [{tool = \"a\"}]\n")
	_, err = e.Remember(Rule{Action: Allow, Tool: "x"}, ScopeProject)
	assert.ErrorContains(t, err, "policy: cannot append a rule to "+proj)
	assert.Empty(t, e.Rules())
}

func TestRevokeFromFile(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p.toml")
	text := `mode = "default"

# first
[[allow]]
tool = "read_file"

# about the second
[[deny]]
tool = "run_shell"
command = "rm"

[roles.x]
tools = ["a"]

# the third
[[ask]]
tool = "edit_file" # trailing
`
	writeText(t, proj, text)
	e, err := Load("", proj)
	require.NoError(t, err)
	ids := map[string]string{}
	for _, r := range e.Rules() {
		ids[r.Tool] = r.ID
	}

	require.NoError(t, e.Revoke(ids["read_file"]))
	assert.Equal(t, `mode = "default"

# first
# about the second
[[deny]]
tool = "run_shell"
command = "rm"

[roles.x]
tools = ["a"]

# the third
[[ask]]
tool = "edit_file" # trailing
`, readText(t, proj))
	// Remaining rules keep their IDs; their Source follows the new lines.
	var srcs []string
	for _, r := range e.Rules() {
		srcs = append(srcs, r.ID+" "+r.Source)
	}
	assert.Equal(t, []string{"project-2 " + proj + ":5", "project-3 " + proj + ":13"}, srcs)

	require.NoError(t, e.Revoke(ids["edit_file"]))
	assert.Equal(t, `mode = "default"

# first
# about the second
[[deny]]
tool = "run_shell"
command = "rm"

[roles.x]
tools = ["a"]

# the third
`, readText(t, proj))

	// Remember then Revoke leaves the file as it was.
	before := readText(t, proj)
	r, err := e.Remember(Rule{Action: Allow, Tool: "x"}, ScopeProject)
	require.NoError(t, err)
	require.NoError(t, e.Revoke(r.ID))
	assert.Equal(t, before+"\n", readText(t, proj))

	e2, err := Load("", proj)
	require.NoError(t, err)
	require.Len(t, e2.Rules(), 1)
	assert.Equal(t, e.Rules()[0].Source, e2.Rules()[0].Source)

	// A rule already gone from the file is just dropped from memory.
	writeText(t, proj, "")
	require.NoError(t, e.Revoke(ids["run_shell"]))
	assert.Empty(t, e.Rules())
}

func TestRevokeFindsMovedRule(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p.toml")
	writeText(t, proj, "[[allow]]\ntool = \"a\"\n[[allow]]\ntool = \"b\"\n")
	e, err := Load("", proj)
	require.NoError(t, err)
	// Someone inserts a table at the top behind our back.
	writeText(t, proj, "[[ask]]\ntool = \"new\"\n[[allow]]\ntool = \"a\"\n[[allow]]\ntool = \"b\"\n")
	require.NoError(t, e.Revoke("project-2"))
	assert.Equal(t, "[[ask]]\ntool = \"new\"\n[[allow]]\ntool = \"a\"\n", readText(t, proj))
}

func TestRevokeInline(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p.toml")
	writeText(t, proj, "allow = [{tool = \"a\"}]\n")
	e, err := Load("", proj)
	require.NoError(t, err)
	err = e.Revoke("project-1")
	assert.EqualError(t, err, "policy: rule project-1 is in an inline array in "+proj+":1; edit the file by hand")
	assert.Len(t, e.Rules(), 1)
}

func TestConcurrency(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p.toml")
	e, err := Load("", proj)
	require.NoError(t, err)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reqs := []Request{readFile, writeFile, shellNet, shellDestr}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				d := e.Decide(reqs[i%len(reqs)])
				if d.Action == Allow && d.Rule == nil && reqs[i%len(reqs)].Tool != "read_file" {
					t.Errorf("unexpected mode allow: %+v", d)
				}
				_ = e.Rules()
				_, _ = e.Role("reader")
			}
		}()
	}
	for i := 0; i < 40; i++ {
		scope := []Scope{ScopeOnce, ScopeSession, ScopeProject}[i%3]
		r, err := e.Remember(Rule{Action: Action(i % 3), Tool: "write_file"}, scope)
		require.NoError(t, err)
		if i%2 == 0 {
			err := e.Revoke(r.ID)
			if scope == ScopeOnce && err != nil {
				continue // consumed by a Decide meanwhile
			}
			require.NoError(t, err)
		}
	}
	close(stop)
	wg.Wait()
	// The file and memory agree.
	e2, err := Load("", proj)
	require.NoError(t, err)
	var mem, disk []Rule
	for _, r := range e.Rules() {
		if r.Scope == ScopeProject {
			mem = append(mem, r)
		}
	}
	disk = e2.Rules()
	require.Len(t, disk, len(mem))
	for i := range mem {
		assert.Equal(t, mem[i].Action, disk[i].Action)
		assert.Equal(t, mem[i].Source, disk[i].Source)
	}
}

func FuzzLoad(f *testing.F) {
	for _, s := range []string{userConf, projectConf, "", "allow = [{tool='a', paths=['**']}]", "[roles]\nx = {tools=[]}\n",
		"[[allow]]\npaths=['[']\n", "mode = 'yolo'\n[[deny]]\nclass='network'\n", "roles.x.tools = ['a']\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e := New(ModeDefault)
		if err := e.loadBytes(ScopeProject, "f.toml", data); err != nil {
			return
		}
		for _, r := range e.Rules() {
			// Every loaded rule renders back to a file that loads to it.
			pc, err := parseConfig("r.toml", []byte(renderRule(r)))
			if err != nil {
				t.Fatalf("rule %+v renders to bad TOML: %v", r, err)
			}
			if !sameRule(pc.rules[0].rule, r) {
				t.Fatalf("round trip changed %+v to %+v", r, pc.rules[0].rule)
			}
		}
		_ = e.Decide(shellNet)
		_ = e.Decide(writeFile)
	})
}

func TestUntrustedProjectCannotLoosenTheRules(t *testing.T) {
	dir := t.TempDir()
	proj, trust := filepath.Join(dir, "config.toml"), filepath.Join(dir, "state", "trust")
	cloned := "mode = \"yolo\"\n\n[[allow]]\ntool = \"run_shell\"\ncommand = \"curl\"\n\n[[deny]]\ntool = \"delete_file\"\n\n[roles.reader]\ntools = [\"run_shell\"]\n"
	require.NoError(t, os.WriteFile(proj, []byte(cloned), 0o644))

	e, err := LoadWithTrust("", proj, trust)
	require.NoError(t, err)
	assert.Equal(t, ModeDefault, e.Mode(), "a repository cannot turn on yolo")
	curl := Request{Tool: "run_shell", Commands: []Command{cmd("curl", "evil.example")}, Class: "network"}
	assert.Equal(t, Ask, e.Decide(curl).Action, "nor allow its own commands")
	assert.Equal(t, Deny, e.Decide(deleteFile).Action, "its deny rules apply")
	tools, _ := e.Role("reader")
	assert.NotContains(t, tools, "run_shell", "nor widen a role")
	assert.Equal(t, []string{
		proj + `: mode = "yolo"`,
		proj + ": [roles.reader]",
		proj + ":3: [[allow]] tool = \"run_shell\", command = \"curl\"",
	}, e.Ignored())

	require.NoError(t, e.Trust(), "the user read it and trusts it")
	e, err = LoadWithTrust("", proj, trust)
	require.NoError(t, err)
	assert.Equal(t, ModeYolo, e.Mode())
	assert.Empty(t, e.Ignored())

	f, err := os.OpenFile(proj, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\n[[allow]]\ntool = \"*\"\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	e, err = LoadWithTrust("", proj, trust)
	require.NoError(t, err)
	assert.Equal(t, ModeDefault, e.Mode(), "a change behind the user's back voids the trust")

	e, err = Load("", proj)
	require.NoError(t, err)
	assert.Equal(t, ModeYolo, e.Mode(), "Load trusts the project")
}

func TestStricterProjectModeAndJidosOwnWritesStayTrusted(t *testing.T) {
	dir := t.TempDir()
	proj, trust := filepath.Join(dir, "config.toml"), filepath.Join(dir, "trust")
	require.NoError(t, os.WriteFile(proj, []byte("mode = \"read-only\"\n"), 0o644))
	e, err := LoadWithTrust("", proj, trust)
	require.NoError(t, err)
	assert.Equal(t, ModeReadOnly, e.Mode(), "a stricter mode needs no trust")

	fresh := filepath.Join(dir, "fresh.toml")
	e, err = LoadWithTrust("", fresh, trust)
	require.NoError(t, err)
	_, err = e.Remember(Rule{Action: Allow, Tool: "write_file"}, ScopeProject)
	require.NoError(t, err)
	e, err = LoadWithTrust("", fresh, trust)
	require.NoError(t, err)
	assert.Equal(t, Allow, e.Decide(writeFile).Action, "the rule jido wrote for the user (\"always\") applies after a restart")
	id := e.Rules()[0].ID
	require.NoError(t, e.Revoke(id))
	_, err = e.Remember(Rule{Action: Allow, Tool: "edit_file"}, ScopeProject)
	require.NoError(t, err)
	e, err = LoadWithTrust("", fresh, trust)
	require.NoError(t, err)
	assert.Equal(t, Allow, e.Decide(editFile).Action, "and after a revoke")
	assert.Empty(t, e.Ignored())
}

func TestProtectedPathsApplyUntrusted(t *testing.T) {
	dir := t.TempDir()
	user, proj, trust := filepath.Join(dir, "user.toml"), filepath.Join(dir, "config.toml"), filepath.Join(dir, "trust")
	require.NoError(t, os.WriteFile(user, []byte("protected = [\"Makefile\"]\n"), 0o644))
	require.NoError(t, os.WriteFile(proj, []byte("protected = [\"deploy/**\", \"*.lock\"]\n"), 0o644))
	e, err := LoadWithTrust(user, proj, trust)
	require.NoError(t, err)
	assert.Equal(t, []string{"Makefile", "deploy/**", "*.lock"}, e.Protected(), "a project's list only adds protection: no trust needed")
	assert.Empty(t, e.Ignored())
	assert.Equal(t, e.Protected(), e.Fork("").Protected(), "a session's engine sees the same list")

	for _, bad := range []string{`protected = ["/etc/**"]`, `protected = ["deploy/[x"]`, `protected = [""]`, `protected = "deploy"`} {
		require.NoError(t, os.WriteFile(proj, []byte(bad+"\n"), 0o644))
		_, err := LoadWithTrust("", proj, trust)
		assert.ErrorContains(t, err, "protected", bad)
	}
}

func TestProtectedConfigErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{name: "absolute", text: "protected = [\"/etc/**\"]\n", want: `:1:14: protected: "/etc/**" is absolute`},
		{name: "home", text: "protected = [\"~/.ssh\"]\n", want: `:1:14: protected: "~/.ssh" is absolute`},
		{name: "bad glob on its line", text: "mode = \"default\"\nprotected = [\n  \"deploy/**\",\n  \"deploy/[x\",\n]\n", want: `:4:3: protected: "deploy/[x" is not a valid glob`},
		{name: "empty", text: "protected = [\"\"]\n", want: `:1:14: protected: "" is empty`},
		{name: "dot", text: "protected = [\"./deploy/**\"]\n", want: `:1:14: protected: "./deploy/**" has an empty, "." or ".." part`},
		{name: "dotdot", text: "protected = [\"../x\"]\n", want: `".." part`},
		{name: "trailing slash", text: "protected = [\"deploy/\"]\n", want: `"deploy/" has an empty`},
		{name: "backslash", text: "protected = [\"deploy\\\\x\"]\n", want: `has a backslash`},
		{name: "not an array", text: "protected = \"deploy\"\n", want: `:1:`},
		{name: "not strings", text: "protected = [1]\n", want: `:1:`},
		{name: "in a table", text: "[[deny]]\ntool = \"*\"\nprotected = [\"x\"]\n", want: `:3:1: unknown key "deny.protected"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			proj := filepath.Join(t.TempDir(), "config.toml")
			require.NoError(t, os.WriteFile(proj, []byte(tc.text), 0o644))
			_, err := LoadWithTrust("", proj, filepath.Join(t.TempDir(), "trust"))
			require.Error(t, err)
			assert.Contains(t, err.Error(), proj, "the error names the file")
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	ok := filepath.Join(t.TempDir(), "config.toml")
	require.NoError(t, os.WriteFile(ok, []byte("protected = [\"deploy/**\", \"Makefile\", \"**/*.sh\", \".github/workflows\"]\n[[deny]]\ntool = \"run_shell\"\ncommand = \"rm\"\n"), 0o644))
	e, err := LoadWithTrust("", ok, filepath.Join(t.TempDir(), "trust"))
	require.NoError(t, err)
	assert.Equal(t, []string{"deploy/**", "Makefile", "**/*.sh", ".github/workflows"}, e.Protected())
}

// TestTrustRecordsWhatWasRead: jido trust records the bytes it showed, so a file changed
// after it was shown is not trusted; jido's own append keeps trust for what it wrote.
func TestTrustRecordsWhatWasRead(t *testing.T) {
	dir := t.TempDir()
	proj, trust := filepath.Join(dir, "config.toml"), filepath.Join(dir, "trust")
	shown := []byte("mode = \"auto-edit\"\n")
	require.NoError(t, os.WriteFile(proj, shown, 0o644))
	e, err := LoadWithTrust("", proj, trust)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(proj, []byte("mode = \"yolo\"\n"), 0o644)) // swapped after it was shown
	require.NoError(t, e.TrustProject(shown, nil))
	e, err = LoadWithTrust("", proj, trust)
	require.NoError(t, err)
	assert.Equal(t, ModeDefault, e.Mode(), "the swapped file is not the one the user trusted")

	require.NoError(t, os.WriteFile(proj, shown, 0o644))
	e, err = LoadWithTrust("", proj, trust)
	require.NoError(t, err)
	assert.Equal(t, ModeAutoEdit, e.Mode())
	_, err = e.Remember(Rule{Action: Allow, Tool: "run_shell", Command: "make", Class: "mutating"}, ScopeProject)
	require.NoError(t, err)
	e, err = LoadWithTrust("", proj, trust)
	require.NoError(t, err)
	assert.Equal(t, ModeAutoEdit, e.Mode(), "jido's own append stays trusted")
	assert.Len(t, e.Rules(), 1)
}

// TestProfileKey reads `profile = "..."`: the project's over the user's, untrusted too
// (it names a dialect and grants nothing); a fork sees its parent's.
func TestProfileKey(t *testing.T) {
	dir := t.TempDir()
	user, proj := filepath.Join(dir, "user.toml"), filepath.Join(dir, "p", "jido.toml")
	writeText(t, user, "profile = \"forj\"\n")
	e, err := Load(user, proj)
	require.NoError(t, err)
	assert.Equal(t, "forj", e.Profile(), "the user's")
	writeText(t, proj, "profile = \"claude\"\n")
	e, err = LoadWithTrust(user, proj, filepath.Join(dir, "trust"))
	require.NoError(t, err)
	assert.Equal(t, "claude", e.Profile(), "the project's, untrusted")
	assert.Equal(t, "claude", e.Fork(ModePlan).Profile())

	writeText(t, proj, "profile = 3\n")
	_, err = Load(user, proj)
	require.Error(t, err, "a profile that is not a string")
}

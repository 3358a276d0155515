package policy

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func cmd(name string, args ...string) Command { return Command{Name: name, Args: args} }

var (
	readFile   = Request{Tool: "read_file", ReadOnly: true, Paths: []string{"a.go"}}
	writeFile  = Request{Tool: "write_file", Mutating: true, Paths: []string{"a.go"}}
	editFile   = Request{Tool: "edit_file", Mutating: true, Paths: []string{"src/b.go"}}
	deleteFile = Request{Tool: "delete_file", Mutating: true, Destructive: true, Paths: []string{"a.go"}}
	shellRO    = Request{Tool: "run_shell", Commands: []Command{cmd("git", "status", "-s")}, Class: "read-only"}
	shellDestr = Request{Tool: "run_shell", Commands: []Command{cmd("rm", "-rf", "build")}, Class: "destructive"}
	shellNet   = Request{Tool: "run_shell", Commands: []Command{cmd("git", "push")}, Class: "network"}
)

func TestActionModeStrings(t *testing.T) {
	assert.Equal(t, "allow", Allow.String())
	assert.Equal(t, "ask", Ask.String())
	assert.Equal(t, "deny", Deny.String())
	assert.Equal(t, "Action(7)", Action(7).String())
	for _, m := range []Mode{ModeDefault, ModeAutoEdit, ModeYolo, ModePlan, ModeReadOnly} {
		got, err := ParseMode(string(m))
		require.NoError(t, err)
		assert.Equal(t, m, got)
	}
	_, err := ParseMode("fast")
	assert.EqualError(t, err, `unknown mode "fast" (want default, auto-edit, yolo, plan or read-only)`)
}

func TestModeDefaults(t *testing.T) {
	calls := []struct {
		name string
		req  Request
	}{
		{"read_file", readFile}, {"write_file", writeFile}, {"edit_file", editFile}, {"delete_file", deleteFile},
		{"shell read-only", shellRO}, {"shell destructive", shellDestr}, {"shell network", shellNet},
	}
	A, Q, D := Allow, Ask, Deny
	want := map[Mode][]Action{
		ModeDefault:  {A, Q, Q, Q, Q, Q, Q},
		ModeAutoEdit: {A, A, A, Q, A, Q, Q},
		ModeYolo:     {A, A, A, A, A, A, A},
		ModePlan:     {A, A, A, A, A, A, A}, // run_shell runs builtins over the plan
		ModeReadOnly: {A, D, D, D, D, D, D},
		"bogus":      {A, Q, Q, Q, Q, Q, Q},
	}
	for mode, actions := range want {
		e := New(mode)
		for i, c := range calls {
			t.Run(fmt.Sprintf("%s/%s", mode, c.name), func(t *testing.T) {
				d := e.Decide(c.req)
				assert.Equal(t, actions[i], d.Action, d.Reason)
				assert.Nil(t, d.Rule)
				assert.NotEmpty(t, d.Reason)
				if d.Action == Ask {
					assert.NotEmpty(t, d.Suggest)
				} else {
					assert.Empty(t, d.Suggest)
				}
			})
		}
	}
	d := New(ModeReadOnly).Decide(writeFile)
	assert.Equal(t, "the session is read-only: write_file a.go is not allowed", d.Reason)
}

func TestModeEdgeCases(t *testing.T) {
	// Contradictory flags are not read-only; a mutating tool without paths
	// is not a file tool; a shell call without class is not read-only.
	odd := Request{Tool: "read_file", ReadOnly: true, Mutating: true, Paths: []string{"a"}}
	assert.Equal(t, Ask, New(ModeDefault).Decide(odd).Action)
	jobKill := Request{Tool: "job_kill", Mutating: true}
	assert.Equal(t, Ask, New(ModeAutoEdit).Decide(jobKill).Action)
	assert.Equal(t, Ask, New(ModePlan).Decide(jobKill).Action)
	assert.Equal(t, Ask, New(ModePlan).Decide(Request{Tool: "plan_apply", Mutating: true, Destructive: true}).Action, "writing the plan to disk asks")
	noClass := Request{Tool: "run_tests", Commands: []Command{cmd("go", "test")}}
	assert.Equal(t, Ask, New(ModeAutoEdit).Decide(noClass).Action)
	testsRO := Request{Tool: "run_tests", Commands: []Command{cmd("go", "test")}, Class: "read-only"}
	assert.Equal(t, Allow, New(ModeAutoEdit).Decide(testsRO).Action)

	e := New(ModeDefault)
	assert.Equal(t, ModeDefault, e.Mode())
	e.SetMode(ModeYolo)
	assert.Equal(t, ModeYolo, e.Mode())
	assert.Equal(t, Allow, e.Decide(shellDestr).Action)
}

// ruleCase checks one rule against one call.
type ruleCase struct {
	name string
	rule Rule
	req  Request
	want bool
}

func TestMatching(t *testing.T) {
	sh := func(class string, cmds ...Command) Request {
		return Request{Tool: "run_shell", Class: class, Commands: cmds}
	}
	files := func(tool string, paths ...string) Request {
		return Request{Tool: tool, Mutating: true, Paths: paths}
	}
	cases := []ruleCase{
		// tool globs
		{"empty rule matches all", Rule{Action: Allow}, writeFile, true},
		{"tool exact", Rule{Action: Allow, Tool: "write_file"}, writeFile, true},
		{"tool exact other", Rule{Action: Allow, Tool: "write_file"}, editFile, false},
		{"tool glob suffix", Rule{Action: Allow, Tool: "*_file"}, editFile, true},
		{"tool glob no match", Rule{Action: Allow, Tool: "*_file"}, shellRO, false},
		{"tool star", Rule{Action: Deny, Tool: "*"}, shellRO, true},
		{"tool alternatives", Rule{Action: Allow, Tool: "{read,write}_file"}, writeFile, true},

		// paths: all for allow, any for deny/ask, never without paths
		{"allow all paths match", Rule{Action: Allow, Paths: []string{"src/**", "docs/*.md"}}, files("write_file", "src/a/b.go", "docs/x.md"), true},
		{"allow one path outside", Rule{Action: Allow, Paths: []string{"src/**"}}, files("write_file", "src/a.go", "main.go"), false},
		{"deny any path", Rule{Action: Deny, Paths: []string{".env", "secrets/**"}}, files("write_file", "a.go", "secrets/k"), true},
		{"deny no path", Rule{Action: Deny, Paths: []string{"secrets/**"}}, files("write_file", "a.go", "b.go"), false},
		{"ask any path", Rule{Action: Ask, Paths: []string{"*.lock"}}, files("edit_file", "go.go", "x.lock"), true},
		{"paths vs no paths allow", Rule{Action: Allow, Paths: []string{"**"}}, shellRO, false},
		{"paths vs no paths deny", Rule{Action: Deny, Paths: []string{"**"}}, shellRO, false},
		{"single star not across dirs", Rule{Action: Allow, Paths: []string{"*.go"}}, files("write_file", "src/a.go"), false},

		// command prefixes
		{"prefix two words", Rule{Action: Allow, Command: "git status"}, sh("read-only", cmd("git", "status", "-s")), true},
		{"prefix other subcommand", Rule{Action: Allow, Command: "git status"}, sh("network", cmd("git", "push")), false},
		{"prefix name only", Rule{Action: Allow, Command: "npm"}, sh("mutating", cmd("npm", "install", "x")), true},
		{"prefix longer than command", Rule{Action: Allow, Command: "git status -s"}, sh("read-only", cmd("git", "status")), false},
		{"base name", Rule{Action: Allow, Command: "git log"}, sh("read-only", cmd("/usr/bin/git", "log")), true},
		{"rule with path name", Rule{Action: Allow, Command: "/usr/bin/git log"}, sh("read-only", cmd("git", "log")), true},
		{"not a word prefix", Rule{Action: Allow, Command: "gi"}, sh("read-only", cmd("git", "log")), false},
		{"allow needs every command", Rule{Action: Allow, Command: "git"}, sh("network", cmd("git", "add", "."), cmd("curl", "x")), false},
		{"allow every command matches", Rule{Action: Allow, Command: "git"}, sh("mutating", cmd("git", "add", "."), cmd("git", "commit")), true},
		{"deny any command", Rule{Action: Deny, Command: "git push"}, sh("network", cmd("git", "add", "."), cmd("git", "push", "origin")), true},
		{"ask any command", Rule{Action: Ask, Command: "rm"}, sh("destructive", cmd("ls"), cmd("rm", "x")), true},
		{"deny no command matches", Rule{Action: Deny, Command: "git push"}, sh("mutating", cmd("git", "add", ".")), false},
		{"command vs no commands", Rule{Action: Deny, Command: "rm"}, writeFile, false},

		// class: at most for allow, at least for deny/ask
		{"allow mutating covers read-only", Rule{Action: Allow, Tool: "run_shell", Class: "mutating"}, sh("read-only", cmd("ls")), true},
		{"allow mutating covers mutating", Rule{Action: Allow, Tool: "run_shell", Class: "mutating"}, sh("mutating", cmd("touch", "x")), true},
		{"allow mutating not network", Rule{Action: Allow, Tool: "run_shell", Class: "mutating"}, sh("network", cmd("curl", "x")), false},
		{"deny network covers destructive", Rule{Action: Deny, Tool: "run_shell", Class: "network"}, sh("destructive", cmd("rm", "x")), true},
		{"deny network covers network", Rule{Action: Deny, Tool: "run_shell", Class: "network"}, sh("network", cmd("curl", "x")), true},
		{"deny network not mutating", Rule{Action: Deny, Tool: "run_shell", Class: "network"}, sh("mutating", cmd("touch", "x")), false},
		{"ask destructive", Rule{Action: Ask, Class: "destructive"}, sh("destructive", cmd("rm", "x")), true},
		{"unknown call class is destructive", Rule{Action: Deny, Class: "destructive"}, sh("weird", cmd("x")), true},
		{"shell without class is destructive", Rule{Action: Allow, Class: "network"}, sh("", cmd("ls")), false},
		{"file flags: destructive", Rule{Action: Deny, Class: "destructive"}, deleteFile, true},
		{"file flags: mutating", Rule{Action: Allow, Class: "mutating"}, writeFile, true},
		{"file flags: read-only", Rule{Action: Allow, Class: "read-only"}, readFile, true},
		{"no flags: mutating", Rule{Action: Allow, Class: "read-only"}, Request{Tool: "web_fetch"}, false},

		// everything together
		{"all fields", Rule{Action: Allow, Tool: "run_*", Command: "go test", Class: "mutating"}, Request{Tool: "run_tests", Class: "mutating", Commands: []Command{cmd("go", "test", "./...")}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, matches(&c.rule, c.req))
		})
	}
}

func remember(t *testing.T, e *Engine, r Rule, s Scope) Rule {
	t.Helper()
	got, err := e.Remember(r, s)
	require.NoError(t, err)
	return got
}

func TestPrecedence(t *testing.T) {
	t.Run("deny wins over earlier allow", func(t *testing.T) {
		e := New(ModeYolo)
		remember(t, e, Rule{Action: Allow, Tool: "run_shell"}, ScopeOnce)
		deny := remember(t, e, Rule{Action: Deny, Command: "git push"}, ScopeSession)
		d := e.Decide(shellNet)
		assert.Equal(t, Deny, d.Action)
		require.NotNil(t, d.Rule)
		assert.Equal(t, deny.ID, d.Rule.ID)
		assert.Equal(t, "deny rule session-1 (session) matches run_shell `git push`", d.Reason)
		// The once rule was not used, so it is still there.
		assert.Len(t, e.Rules(), 2)
	})
	t.Run("once before session", func(t *testing.T) {
		e := New(ModeDefault)
		remember(t, e, Rule{Action: Ask, Tool: "write_file"}, ScopeSession)
		once := remember(t, e, Rule{Action: Allow, Tool: "write_file"}, ScopeOnce)
		d := e.Decide(writeFile)
		assert.Equal(t, Allow, d.Action)
		assert.Equal(t, once.ID, d.Rule.ID)
		d = e.Decide(writeFile)
		assert.Equal(t, Ask, d.Action, "once rule is consumed")
		assert.Equal(t, "session-1", d.Rule.ID)
		assert.Equal(t, "[[allow]]\ntool = \"write_file\"\npaths = [\"a.go\"]", d.Suggest)
	})
	t.Run("session before project before user", func(t *testing.T) {
		e := New(ModeDefault)
		require.NoError(t, e.loadBytes(ScopeUser, "user.toml", []byte("[[allow]]\ntool = \"edit_file\"\n")))
		require.NoError(t, e.loadBytes(ScopeProject, "proj.toml", []byte("[[ask]]\ntool = \"edit_file\"\n[[allow]]\ntool = \"*\"\n")))
		d := e.Decide(editFile)
		assert.Equal(t, Ask, d.Action)
		assert.Equal(t, "project-1", d.Rule.ID)
		assert.Equal(t, "proj.toml:1", d.Rule.Source)
		remember(t, e, Rule{Action: Allow, Tool: "edit_file"}, ScopeSession)
		assert.Equal(t, "session-1", e.Decide(editFile).Rule.ID)
		d = e.Decide(writeFile)
		assert.Equal(t, "project-2", d.Rule.ID, "project file order: second rule")
		d = e.Decide(Request{Tool: "edit_file", Paths: []string{"x"}})
		assert.Equal(t, "session-1", d.Rule.ID)
	})
	t.Run("user scope decides when nothing else does", func(t *testing.T) {
		e := New(ModeDefault)
		require.NoError(t, e.loadBytes(ScopeUser, "user.toml", []byte("[[allow]]\ntool = \"edit_file\"\n")))
		require.NoError(t, e.loadBytes(ScopeProject, "proj.toml", []byte("[[ask]]\ntool = \"write_file\"\n")))
		d := e.Decide(editFile)
		assert.Equal(t, Allow, d.Action)
		assert.Equal(t, "user-1", d.Rule.ID)
		assert.Equal(t, "allow rule user-1 (user.toml:1) matches edit_file src/b.go", d.Reason)
	})
	t.Run("file order within a scope, allow and ask interleaved", func(t *testing.T) {
		e := New(ModeDefault)
		require.NoError(t, e.loadBytes(ScopeProject, "p.toml", []byte(
			"[[ask]]\ntool = \"run_shell\"\ncommand = \"git push\"\n\n[[allow]]\ntool = \"run_shell\"\ncommand = \"git\"\n")))
		assert.Equal(t, Ask, e.Decide(shellNet).Action)
		assert.Equal(t, Allow, e.Decide(shellRO).Action)
		ids := []string{}
		for _, r := range e.Rules() {
			ids = append(ids, r.ID+":"+r.Source)
		}
		assert.Equal(t, []string{"project-1:p.toml:1", "project-2:p.toml:5"}, ids)
	})
	t.Run("read-only mode ignores allow rules for writes", func(t *testing.T) {
		e := New(ModeReadOnly)
		remember(t, e, Rule{Action: Allow, Tool: "write_file"}, ScopeSession)
		assert.Equal(t, Deny, e.Decide(writeFile).Action)
		remember(t, e, Rule{Action: Deny, Tool: "read_file"}, ScopeSession)
		assert.Equal(t, Deny, e.Decide(readFile).Action)
	})
	t.Run("yolo still honours deny", func(t *testing.T) {
		e := New(ModeYolo)
		remember(t, e, Rule{Action: Deny, Tool: "run_shell", Class: "network"}, ScopeSession)
		assert.Equal(t, Deny, e.Decide(shellNet).Action)
		assert.Equal(t, Deny, e.Decide(shellDestr).Action)
		assert.Equal(t, Allow, e.Decide(shellRO).Action)
	})
}

func TestOnceConsumed(t *testing.T) {
	e := New(ModeDefault)
	r := remember(t, e, Rule{Action: Allow, Tool: "run_shell", Command: "git push"}, ScopeOnce)
	assert.Equal(t, "once-1", r.ID)
	assert.Equal(t, ScopeOnce, r.Scope)
	assert.Equal(t, Ask, e.Decide(shellRO).Action, "a non-matching call leaves it")
	assert.Len(t, e.Rules(), 1)
	assert.Equal(t, Allow, e.Decide(shellNet).Action)
	assert.Empty(t, e.Rules())
	assert.Equal(t, Ask, e.Decide(shellNet).Action)
	r = remember(t, e, Rule{Action: Allow, Tool: "run_shell"}, ScopeOnce)
	assert.Equal(t, "once-2", r.ID, "IDs are not reused")
}

func TestRulesOrderAndRevoke(t *testing.T) {
	e := New(ModeDefault)
	a := remember(t, e, Rule{Action: Allow, Tool: "a"}, ScopeSession)
	d := remember(t, e, Rule{Action: Deny, Tool: "d"}, ScopeSession)
	o := remember(t, e, Rule{Action: Ask, Tool: "o", Paths: []string{"x"}}, ScopeOnce)
	var ids []string
	for _, r := range e.Rules() {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{d.ID, o.ID, a.ID}, ids, "deny first, then by scope")

	// Rules returns copies.
	e.Rules()[1].Paths[0] = "changed"
	assert.Equal(t, "x", e.Rules()[1].Paths[0])

	require.NoError(t, e.Revoke(d.ID))
	assert.Len(t, e.Rules(), 2)
	assert.EqualError(t, e.Revoke(d.ID), `policy: no rule "session-2"`)
	require.NoError(t, e.Revoke(o.ID))
	require.NoError(t, e.Revoke(a.ID))
	assert.Empty(t, e.Rules())
}

func TestRememberErrors(t *testing.T) {
	e := New(ModeDefault)
	_, err := e.Remember(Rule{Action: Allow}, "forever")
	assert.EqualError(t, err, `policy: unknown scope "forever"`)
	_, err = e.Remember(Rule{Action: 9}, ScopeSession)
	assert.EqualError(t, err, "policy: invalid action 9")
	_, err = e.Remember(Rule{Action: Allow, Class: "big"}, ScopeSession)
	assert.ErrorContains(t, err, `class: bad class "big"`)
	_, err = e.Remember(Rule{Action: Allow, Tool: "[x"}, ScopeSession)
	assert.ErrorContains(t, err, `tool: bad glob "[x"`)
	_, err = e.Remember(Rule{Action: Allow, Paths: []string{""}}, ScopeSession)
	assert.ErrorContains(t, err, "paths: empty glob")
	_, err = e.Remember(Rule{Action: Allow, Command: "  "}, ScopeSession)
	assert.ErrorContains(t, err, "command: blank command")
	_, err = e.Remember(Rule{Action: Allow}, ScopeProject)
	assert.EqualError(t, err, "policy: no project config file to remember the rule in")
	assert.Empty(t, e.Rules())
}

func TestSuggest(t *testing.T) {
	e := New(ModeDefault)
	d := e.Decide(Request{Tool: "run_shell", Class: "network", Commands: []Command{cmd("cd", "x"), cmd("git", "push", "origin", "main")}})
	assert.Equal(t, Ask, d.Action)
	assert.Equal(t, "[[allow]]\ntool = \"run_shell\"\ncommands = [\"cd x\", \"git push\"]\nclass = \"network\"", d.Suggest, "every command of the line")

	d = e.Decide(Request{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("/usr/bin/make")}})
	assert.Equal(t, "[[allow]]\ntool = \"run_shell\"\ncommand = \"make\"\nclass = \"mutating\"", d.Suggest)

	d = e.Decide(Request{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("ls"), cmd("cat", "x")}})
	assert.Equal(t, "[[allow]]\ntool = \"run_shell\"\ncommands = [\"ls\", \"cat x\"]\nclass = \"mutating\"", d.Suggest)

	d = e.Decide(Request{Tool: "write_file", Mutating: true, Paths: []string{`we"ird\path`, "b"}})
	assert.Equal(t, "[[allow]]\ntool = \"write_file\"\npaths = [\"we\\\"ird\\\\path\", \"b\"]", d.Suggest)

	d = e.Decide(Request{Tool: "web_fetch"})
	assert.Equal(t, "[[allow]]\ntool = \"web_fetch\"", d.Suggest)
	assert.Equal(t, "mode default needs approval for web_fetch", d.Reason)

	d = e.Decide(Request{Tool: "run_shell", Class: "destructive", Commands: []Command{cmd("python3", "-c", "print(1+1)")}})
	assert.Equal(t, "[[allow]]\ntool = \"run_shell\"\ncommand = \"python3 -c print(1+1)\"\nclass = \"destructive\"", d.Suggest, "an interpreter's program is part of the rule")

	// A suggestion, once added, allows the call it was made for.
	multi := Request{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("cd", "web"), cmd("npm", "test"), cmd("echo", "done")}}
	for _, req := range []Request{shellNet, writeFile, deleteFile, {Tool: "web_fetch"}, multi} {
		e := New(ModeDefault)
		d := e.Decide(req)
		require.Equal(t, Ask, d.Action)
		pc, err := parseConfig("s.toml", []byte(d.Suggest))
		require.NoError(t, err)
		remember(t, e, pc.rules[0].rule, ScopeSession)
		assert.Equal(t, Allow, e.Decide(req).Action, d.Suggest)
	}
}

func TestTomlQuote(t *testing.T) {
	for _, s := range []string{"plain", `q"b\`, "tab\tnl\ncr\r", "ctl\x01\x7f", "ünï"} {
		pc, err := parseConfig("q.toml", []byte("[[allow]]\ncommand = "+tomlQuote(s)+"\n"))
		require.NoError(t, err, s)
		assert.Equal(t, s, pc.rules[0].rule.Command)
	}
}

func TestDescribeCall(t *testing.T) {
	assert.Equal(t, "write_file a, b, c and 2 more", describeCall(Request{Tool: "write_file", Paths: []string{"a", "b", "c", "d", "e"}}))
	assert.Equal(t, "run_shell `cd x; git push origin`", describeCall(Request{Tool: "run_shell", Commands: []Command{cmd("cd", "x"), cmd("git", "push", "origin")}}))
	assert.Equal(t, "(unnamed tool)", describeCall(Request{}))
}

func TestForkKeepsSessionRulesApart(t *testing.T) {
	dir := t.TempDir()
	parent, err := Load("", dir+"/config.toml")
	require.NoError(t, err)
	a, b := parent.Fork(""), parent.Fork(ModeYolo)

	_, err = a.Remember(Rule{Action: Allow, Tool: "write_file"}, ScopeSession)
	require.NoError(t, err)
	assert.Equal(t, Allow, a.Decide(writeFile).Action, "the session that said so")
	assert.Equal(t, Ask, parent.Fork("").Decide(writeFile).Action, "another session still asks")
	assert.Equal(t, Ask, parent.Decide(writeFile).Action, "the parent still asks")

	deny, err := a.Remember(Rule{Action: Deny, Tool: "delete_file"}, ScopeProject)
	require.NoError(t, err)
	assert.Equal(t, Deny, b.Decide(deleteFile).Action, "a project rule reaches every session, yolo or not")
	assert.Equal(t, Deny, parent.Decide(deleteFile).Action)
	reloaded, err := Load("", dir+"/config.toml")
	require.NoError(t, err)
	assert.Equal(t, Deny, reloaded.Decide(deleteFile).Action, "and is written to the project file")

	assert.Equal(t, ModeDefault, a.Mode(), "mode \"\" follows the parent")
	parent.SetMode(ModeAutoEdit)
	assert.Equal(t, ModeAutoEdit, a.Mode())
	assert.Equal(t, ModeYolo, b.Mode(), "an own mode stays")
	assert.Equal(t, Allow, b.Decide(shellDestr).Action)

	ids := func(rules []Rule) []string {
		var out []string
		for _, r := range rules {
			out = append(out, r.ID)
		}
		return out
	}
	assert.Equal(t, []string{deny.ID, "session-1"}, ids(a.Rules()), "deny first, then the session's own")
	assert.Equal(t, []string{deny.ID}, ids(b.Rules()))
	require.NoError(t, b.Revoke(deny.ID), "a session may revoke a project rule")
	assert.Empty(t, parent.Rules())
	assert.Error(t, b.Revoke("session-1"), "but not another session's rule")

	tools, ok := a.Role("reader")
	assert.True(t, ok, "roles come from the parent")
	assert.Contains(t, tools, "read_file")
}

func TestForkAppliesTheParentsRules(t *testing.T) {
	parent := New(ModeDefault)
	_, err := parent.Remember(Rule{Action: Allow, Tool: "write_file"}, ScopeSession)
	require.NoError(t, err)
	_, err = parent.Remember(Rule{Action: Allow, Tool: "edit_file"}, ScopeOnce)
	require.NoError(t, err)
	a, b := parent.Fork(""), parent.Fork("")
	assert.Equal(t, Allow, a.Decide(writeFile).Action, "the parent's in-memory rules reach every fork")
	assert.Equal(t, Allow, b.Decide(writeFile).Action)
	assert.Equal(t, Allow, a.Decide(editFile).Action, "a once rule of the parent decides one call")
	assert.Equal(t, Ask, b.Decide(editFile).Action, "of whichever fork makes it")
	assert.Equal(t, Ask, parent.Decide(editFile).Action)
}

// TestRememberedRulesCoverNoMore: what "for the session" records covers the approved call
// and no variant that does more (issue 16: a rule broader than what was shown).
func TestRememberedRulesCoverNoMore(t *testing.T) {
	for _, tc := range []struct {
		name     string
		approved Request
		variants []Request
	}{
		{"echo tick", Request{Tool: "run_shell", Class: "read-only", Commands: []Command{cmd("echo", "tick", "$i"), cmd("sleep", "1")}},
			[]Request{{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("echo", "tick")}}}},
		{"python3 -c", Request{Tool: "run_shell", Class: "destructive", Commands: []Command{cmd("python3", "-c", "print(1+1)")}},
			[]Request{{Tool: "run_shell", Class: "destructive", Commands: []Command{cmd("python3", "-c", `shutil.rmtree("src")`)}}}},
		{"bash -c, a program of several words", Request{Tool: "run_shell", Class: "read-only", Commands: []Command{cmd("bash", "-c", "echo hi")}},
			[]Request{
				{Tool: "run_shell", Class: "read-only", Commands: []Command{cmd("bash", "-c", "echo hi", "more")}},
				{Tool: "run_shell", Class: "read-only", Commands: []Command{cmd("bash", "-c", "echo hi\nrm -rf src")}},
				{Tool: "run_shell", Class: "read-only", Commands: []Command{cmd("bash", "-c", "echo  hi")}},
				{Tool: "run_shell", Class: "read-only", Commands: []Command{cmd("bash", "-c", "echo")}},
			}},
		{"node -e", Request{Tool: "run_shell", Class: "destructive", Commands: []Command{cmd("node", "-e", "1")}},
			[]Request{{Tool: "run_shell", Class: "destructive", Commands: []Command{cmd("node", "-e", "require('fs').rmSync('src')")}}}},
		{"a line of several commands", Request{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("cd", "web"), cmd("npm", "test")}},
			[]Request{
				{Tool: "run_shell", Class: "destructive", Commands: []Command{cmd("cd", "web"), cmd("npm", "test"), cmd("rm", "-rf", "src")}},
				{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("cd", "/"), cmd("npm", "test")}},
				{Tool: "run_shell", Class: "network", Commands: []Command{cmd("cd", "web"), cmd("npm", "test"), cmd("npm", "publish")}},
			}},
		{"go test then rm", Request{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("go", "test", "./...")}},
			[]Request{
				{Tool: "run_shell", Class: "destructive", Commands: []Command{cmd("go", "test"), cmd("rm", "-rf", "src")}},
				{Tool: "run_shell", Class: "destructive", Commands: []Command{cmd("go", "test", "-exec", "rm")}},
				{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("go", "test")}, RiskyEnv: []string{"GOFLAGS"}},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(ModeDefault)
			remember(t, e, RuleFor(tc.approved), ScopeSession)
			assert.Equal(t, Allow, e.Decide(tc.approved).Action, "the approved line itself runs next time")
			for _, v := range tc.variants {
				assert.Equal(t, Ask, e.Decide(v).Action, "%+v", v)
			}
		})
	}
}

// TestRulesNameTheFilesALineWrites: a rule recorded from a line with a redirection or a bare
// assignment (nameless commands) covers exactly that redirection or assignment, and a line
// with nothing to record gives a rule Remember refuses rather than one with no command.
func TestRulesNameTheFilesALineWrites(t *testing.T) {
	redirect := func(op, target string) Command { return Command{Args: []string{op, target}} }
	approved := Request{Tool: "run_shell", Class: "mutating", Commands: []Command{cmd("echo", "x"), redirect(">", "f")}}
	assert.Equal(t, []string{"echo x", "> f"}, RuleFor(approved).Commands)
	e := New(ModeDefault)
	remember(t, e, RuleFor(approved), ScopeSession)
	assert.Equal(t, Allow, e.Decide(approved).Action)
	for _, v := range [][]Command{
		{cmd("echo", "x"), redirect(">", "main.go")},
		{cmd("echo", "x"), redirect(">>", "f")},
		{redirect(">", "main.go")},
		{Command{Args: []string{"PATH=."}}},
	} {
		assert.Equal(t, Ask, e.Decide(Request{Tool: "run_shell", Class: "mutating", Commands: v}).Action, "%v", v)
	}
	alone := Request{Tool: "run_shell", Class: "mutating", Commands: []Command{redirect(">", "f")}}
	assert.Equal(t, "> f", RuleFor(alone).Command, "a bare redirection is a rule of its own, not a rule of no command")
	blank := RuleFor(Request{Tool: "run_shell", Class: "destructive", Commands: []Command{{}}})
	_, err := New(ModeDefault).Remember(blank, ScopeSession)
	assert.Error(t, err, "a rule with no command would cover every line: %+v", blank)
}

package shellclass

import (
	"path"
	"strings"
)

// perlCmd: perl runs arbitrary code, so it is Mutating; -i edits files in place.
func perlCmd(x *call) verdict {
	opts, rest := optSpec{value: "eEIMmx", optional: "0lCdDi"}.leading(x.args)
	switch {
	case has(opts, "-i"):
		return verdict{Mutating, "perl -i edits files in place"}
	case len(rest) == 0 && !has(opts, "-e", "-E") && has(opts, "-v", "-V", "--version", "-h", "--help"):
		return verdict{ReadOnly, "perl only prints its version"}
	case len(rest) == 0 && !has(opts, "-e", "-E"):
		return stdinCode(x, "perl")
	}
	return verdict{Mutating, "perl runs a program"}
}

// sourceCmd: source runs a script in this shell (Mutating, like any unknown program), or
// computed code when the file is a pipe: source <(curl ...).
func sourceCmd(x *call) verdict {
	if len(x.args) > 0 && isDynamicFile(x.args[0]) {
		return verdict{Destructive, x.name + " runs computed code from " + x.args[0].val + " (dynamic code)"}
	}
	if len(x.args) == 0 {
		return verdict{ReadOnly, x.name + " without a file does nothing"}
	}
	return verdict{Mutating, x.name + " runs a script in this shell"}
}

// parallelCmd: GNU parallel runs its command (joined, through a shell) for each input.
func parallelCmd(x *call) verdict {
	_, rest := optSpec{value: "jSIaEdXnNsl", long: longs("jobs", "sshlogin", "arg-file", "delimiter", "joblog",
		"results", "workdir", "timeout", "retries", "tmpdir", "colsep", "max-args", "max-replace-args")}.leading(x.args)
	end := 0
	for end < len(rest) && !(rest[end].lit && strings.HasPrefix(rest[end].val, ":::")) {
		end++
	}
	v := verdict{ReadOnly, "parallel runs a command for each input"}
	if end == 0 {
		return verdict{Destructive, "parallel runs commands read from its input (dynamic code)"}
	}
	v.raise(joinedScript(x, "parallel", rest[:end]))
	return v
}

// flockCmd: flock FILE CMD, or flock FILE -c STRING, runs the command holding a lock.
func flockCmd(x *call) verdict {
	spec := optSpec{value: "wEc", long: longs("timeout", "conflict-exit-code", "command")}
	opts, operands := spec.leading(x.args)
	v := verdict{ReadOnly, "flock only takes a lock"}
	if len(operands) > 0 { // options may also follow the lock file
		more, cmd := spec.leading(operands[1:])
		opts, operands = append(opts, more...), cmd
	}
	if cmd, ok := optValue(opts, "-c", "--command"); ok {
		v.raise(x.script(cmd, x.self))
	} else if len(operands) > 0 {
		v.raise(x.innerStdin(operands))
	}
	return v
}

// atCmd: at and batch schedule shell commands read from input or from -f FILE.
func atCmd(x *call) verdict {
	opts, _ := optSpec{value: "qfmMt"}.scan(x.args)
	switch {
	case has(opts, "-l", "-c"):
		return verdict{ReadOnly, x.name + " lists jobs"}
	case has(opts, "-d", "-r"):
		return verdict{Mutating, x.name + " removes jobs"}
	}
	if f, ok := optValue(opts, "-f"); ok {
		return verdict{Mutating, x.name + " schedules script " + f}
	}
	v := shellStdin(x)
	v.raise(verdict{Mutating, x.name + " schedules commands"})
	return v
}

// tmuxCmd: tmux subcommands that run or type shell commands cannot be analysed.
func tmuxCmd(x *call) verdict {
	_, rest := optSpec{value: "cCfLST"}.leading(x.args)
	if len(rest) == 0 {
		return verdict{Mutating, "tmux starts a session"}
	}
	if !rest[0].lit {
		return verdict{Destructive, "tmux with a computed subcommand"}
	}
	switch sub := rest[0].val; sub {
	case "ls", "list-sessions", "list-windows", "lsw", "list-panes", "lsp", "list-clients", "lsc",
		"list-buffers", "lsb", "list-keys", "lsk", "capture-pane", "capturep", "display-message", "display",
		"has-session", "has", "show-options", "show", "show-buffer", "showb", "show-environment", "showenv":
		return verdict{ReadOnly, "tmux " + sub + " only reads"}
	case "kill-server", "kill-session", "kill-window", "killw", "kill-pane", "killp":
		return verdict{Destructive, "tmux " + sub + " stops running programs"}
	case "send-keys", "send", "run-shell", "run", "new-session", "new", "new-window", "neww", "split-window",
		"splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "if-shell", "if", "pipe-pane", "pipep":
		return verdict{Destructive, "tmux " + sub + " runs shell commands that are not analysed"}
	}
	return verdict{Mutating, "tmux changes sessions"}
}

// scriptCmd: script records a session to a file; -c runs a command.
func scriptCmd(x *call) verdict {
	opts, _ := optSpec{value: "cEeIOoT", long: longs("command", "echo", "log-in", "log-out", "log-io", "log-timing", "output-limit")}.scan(x.args)
	v := verdict{Mutating, "script writes a typescript file"}
	if cmd, ok := optValue(opts, "-c", "--command"); ok {
		v.raise(x.script(cmd, x.self))
	} else {
		v.raise(shellStdin(x))
	}
	return v
}

// shellCmd: "bash -c STRING" is classified by parsing STRING; "bash script.sh" runs an unknown
// script (Mutating); a shell reading commands from a pipe runs unknown code (Destructive), from
// a literal heredoc the heredoc is parsed.
func shellCmd(x *call) verdict {
	hasC, fromStdin := false, false
	i := 0
loop:
	for ; i < len(x.args); i++ {
		a := x.args[i]
		switch {
		case !a.lit:
			break loop
		case a.val == "--" || a.val == "-":
			i++
			break loop
		case a.val == "--version" || a.val == "--help":
			return verdict{ReadOnly, x.name + " only prints help or its version"}
		case strings.HasPrefix(a.val, "--"):
			if a.val == "--rcfile" || a.val == "--init-file" {
				i++
			}
		case len(a.val) > 1 && (a.val[0] == '-' || a.val[0] == '+'):
			takesValue := false
			for _, ch := range a.val[1:] {
				switch ch {
				case 'c':
					hasC = true
				case 's':
					fromStdin = true
				case 'o', 'O':
					takesValue = true
				}
			}
			if takesValue {
				i++
			}
		default:
			break loop
		}
	}
	var rest []arg
	if i < len(x.args) {
		rest = x.args[i:]
	}
	switch {
	case hasC && len(rest) == 0:
		return verdict{ReadOnly, x.name + " -c without a command does nothing"}
	case hasC && !rest[0].lit:
		return verdict{Destructive, x.name + " -c runs a computed command (dynamic code)"}
	case hasC:
		return x.script(rest[0].val, rest[0])
	case len(rest) > 0 && !fromStdin && isDynamicFile(rest[0]):
		return verdict{Destructive, x.name + " runs a computed script " + rest[0].val + " (dynamic code)"}
	case len(rest) > 0 && !fromStdin:
		return verdict{Mutating, x.name + " runs script " + rest[0].val}
	}
	return shellStdin(x)
}

// shellStdin classifies a shell reading commands from its standard input: a literal heredoc is
// parsed, a file is an unknown script, anything else (a pipe) is dynamic code.
func shellStdin(x *call) verdict {
	switch x.in.kind {
	case inScript:
		return x.c.script(x.in.text, x.in.key, x.depth+1)
	case inFile:
		return verdict{Mutating, x.name + " runs script " + x.in.text}
	}
	return verdict{Destructive, x.name + " reads commands from its input (dynamic code)"}
}

// isDynamicFile reports whether a script operand is not a file on disk but a pipe whose content
// is computed: <(curl ...), /dev/stdin, /dev/fd/N.
func isDynamicFile(a arg) bool {
	if !a.lit {
		return strings.HasPrefix(a.val, "<(")
	}
	p := path.Clean(a.val)
	return a.val == "-" || p == "/dev/stdin" || strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// runsFile classifies an interpreter running the program file a.
func runsFile(x *call, a arg) verdict {
	if isDynamicFile(a) {
		if a.lit && a.val == "-" {
			return stdinCode(x, x.name)
		}
		return verdict{Destructive, x.name + " runs computed code from " + a.val + " (dynamic code)"}
	}
	return verdict{Mutating, x.name + " runs " + a.val}
}

// stdinCode classifies an interpreter that reads its program from standard input.
func stdinCode(x *call, lang string) verdict {
	switch x.in.kind {
	case inScript:
		return verdict{Mutating, lang + " runs code from a heredoc"}
	case inFile:
		return verdict{Mutating, lang + " runs code from " + x.in.text}
	}
	return verdict{Destructive, lang + " reads code from its input (dynamic code)"}
}

// evalCmd: eval joins its arguments and runs them as shell code; literal code is parsed.
func evalCmd(x *call) verdict {
	if len(x.args) == 0 {
		return verdict{ReadOnly, "eval without arguments does nothing"}
	}
	return joinedScript(x, "eval", x.args)
}

// trapCmd: trap 'CODE' SIGNAL runs CODE later; literal code is parsed.
func trapCmd(x *call) verdict {
	_, rest := optSpec{}.leading(x.args)
	if len(rest) < 2 || (rest[0].lit && rest[0].val == "-") {
		return verdict{ReadOnly, "trap only lists or resets handlers"}
	}
	if !rest[0].lit {
		return verdict{Destructive, "trap with computed code (dynamic code)"}
	}
	return x.script(rest[0].val, rest[0])
}

// suCmd: su runs commands as another user (Destructive); a -c command is still listed.
func suCmd(x *call) verdict {
	opts, _ := optSpec{value: "cgGsw", long: longs("command", "group", "supp-group", "shell", "whitelist-environment")}.scan(x.args)
	v := verdict{Destructive, "su runs commands as another user"}
	if cmd, ok := optValue(opts, "-c", "--command"); ok {
		x.script(cmd, x.self)
	}
	return v
}

// versionFlags only print a version or help.
var versionFlags = map[string]bool{"--version": true, "-version": true, "-V": true, "-v": true, "--help": true, "-h": true}

func onlyVersion(args []arg) bool {
	for _, a := range args {
		if !a.lit || !versionFlags[a.val] {
			return false
		}
	}
	return len(args) > 0
}

// interpreterCmd: a language interpreter runs unknown code (Mutating), or code from a pipe
// (Destructive); --version is read-only.
func interpreterCmd(x *call) verdict {
	if onlyVersion(x.args) {
		return verdict{ReadOnly, x.name + " only prints its version"}
	}
	if len(x.args) == 0 {
		return stdinCode(x, x.name)
	}
	for _, a := range x.args {
		if isDynamicFile(a) {
			return runsFile(x, a)
		}
	}
	return verdict{Mutating, x.name + " runs a program"}
}

// nodeCmd is interpreterCmd for node, whose -e/-p take the code.
func nodeCmd(x *call) verdict {
	opts, rest := optSpec{value: "eprC", long: longs("eval", "print", "require", "import", "loader", "conditions")}.leading(x.args)
	switch {
	case onlyVersion(x.args):
		return verdict{ReadOnly, x.name + " only prints its version"}
	case has(opts, "-e", "-p", "--eval", "--print"):
		return verdict{Mutating, x.name + " runs inline JavaScript"}
	case len(rest) > 0:
		return runsFile(x, rest[0])
	}
	return stdinCode(x, x.name)
}

// pythonCmd classifies python; "python -m MODULE" is classified by module (pip, pytest, venv).
func pythonCmd(x *call) verdict {
	opts, rest := optSpec{value: "cmWXQ"}.leading(x.args)
	if m, ok := optValue(opts, "-m"); ok {
		what := x.name + " -m " + m
		switch m {
		case "pip", "pip3":
			return tools["pip"].classify(what, rest)
		case "pytest", "unittest", "doctest", "mypy":
			// Tests, conftest.py and plugins are the project's code, which the agent may
			// have written: Mutating, like running a local program.
			return verdict{Mutating, what + " runs the project's code"}
		case "json.tool", "tokenize", "dis", "pydoc", "site", "sysconfig", "platform", "this":
			return verdict{ReadOnly, what + " only prints"}
		case "venv", "virtualenv":
			return verdict{Mutating, what + " creates a virtual environment"}
		case "http.server", "SimpleHTTPServer":
			return verdict{Network, what + " serves files over HTTP"}
		}
		return verdict{Mutating, what + " runs a module"}
	}
	switch {
	case has(opts, "-c"):
		return verdict{Mutating, x.name + " -c runs inline code"}
	case len(rest) > 0:
		return runsFile(x, rest[0])
	case has(opts, "-V", "--version", "-h", "--help"):
		return verdict{ReadOnly, x.name + " only prints its version"}
	}
	return stdinCode(x, x.name)
}

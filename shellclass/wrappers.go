package shellclass

import (
	"strings"
)

// call is one command being classified: its name, its arguments and where it runs.
type call struct {
	c     *classifier
	ctx   *pctx
	name  string // base name of the program
	self  arg    // the command-name word
	args  []arg  // the words after the name
	in    input  // standard input
	depth int
}

// inner classifies args as a command run by this one (xargs CMD, find -exec CMD ...).
func (x *call) inner(args []arg) verdict {
	return x.c.run(x.ctx, args, input{}, x.depth+1)
}

// innerStdin is inner for a wrapper that passes its standard input on (env, sudo, timeout).
func (x *call) innerStdin(args []arg) verdict {
	return x.c.run(x.ctx, args, x.in, x.depth+1)
}

// script parses text as shell code run by this command (bash -c, eval, ssh host CMD).
func (x *call) script(text string, at arg) verdict {
	return x.c.script(text, at.key, x.depth+1)
}

// optSpec describes a command's options well enough to tell options from operands.
type optSpec struct {
	value    string          // short options that take a value: "-n 5" or "-n5"
	optional string          // short options whose value, if any, is attached: "-i.bak"
	long     map[string]bool // long options that take a value: "--signal KILL" or "--signal=KILL"
	numeric  bool            // "-10" is an option (nice)
}

// opt is one parsed option: "-n" or "--signal", with its value. dynamic is true when the value
// is a separate word that is not literal ("-C "$cb""): value is then its source text.
type opt struct {
	name, value string
	dynamic     bool
}

// leading parses the options before the first operand (POSIX order) and returns the operands,
// which start with the command a wrapper runs.
func (s optSpec) leading(args []arg) ([]opt, []arg) { return s.parse(args, false) }

// scan parses options anywhere among the arguments (GNU order) and returns the operands.
func (s optSpec) scan(args []arg) ([]opt, []arg) { return s.parse(args, true) }

func (s optSpec) parse(args []arg, permute bool) (opts []opt, operands []arg) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit || len(a.val) < 2 || a.val[0] != '-' {
			if !permute {
				return opts, append(operands, args[i:]...)
			}
			operands = append(operands, a)
			continue
		}
		if a.val == "--" {
			return opts, append(operands, args[i+1:]...)
		}
		if strings.HasPrefix(a.val, "--") {
			name, value, hasValue := strings.Cut(a.val, "=")
			dynamic := false
			if !hasValue && s.long[name[2:]] && i+1 < len(args) {
				i++
				value, dynamic = args[i].val, !args[i].lit
			}
			opts = append(opts, opt{name: name, value: value, dynamic: dynamic})
			continue
		}
		if s.numeric && isDigits(a.val[1:]) {
			opts = append(opts, opt{name: a.val})
			continue
		}
		cluster := a.val[1:]
		for j := 0; j < len(cluster); j++ {
			ch := cluster[j]
			name := "-" + cluster[j:j+1]
			switch {
			case strings.IndexByte(s.value, ch) >= 0:
				value, dynamic := cluster[j+1:], false
				if value == "" && i+1 < len(args) {
					i++
					value, dynamic = args[i].val, !args[i].lit
				}
				opts = append(opts, opt{name: name, value: value, dynamic: dynamic})
				j = len(cluster)
			case strings.IndexByte(s.optional, ch) >= 0:
				opts = append(opts, opt{name: name, value: cluster[j+1:]})
				j = len(cluster)
			default:
				opts = append(opts, opt{name: name})
			}
		}
	}
	return opts, operands
}

// has reports whether any of names was given.
func has(opts []opt, names ...string) bool {
	for _, o := range opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// optDynamic reports whether the last option named name has a value that is not literal.
func optDynamic(opts []opt, names ...string) bool {
	dynamic := false
	for _, o := range opts {
		for _, n := range names {
			if o.name == n {
				dynamic = o.dynamic
			}
		}
	}
	return dynamic
}

// optValue is the value of the last option named name.
func optValue(opts []opt, names ...string) (string, bool) {
	value, found := "", false
	for _, o := range opts {
		for _, n := range names {
			if o.name == n {
				value, found = o.value, true
			}
		}
	}
	return value, found
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isAssign reports whether s is NAME=value, as env and sudo accept before the command.
func isAssign(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		if ch != '_' && (ch < 'a' || ch > 'z') && (ch < 'A' || ch > 'Z') && (i == 0 || ch < '0' || ch > '9') {
			return false
		}
	}
	return true
}

// wrapper is a command that runs another command given in its arguments. The wrapper is
// classified as the higher of its own rule and the command it runs.
type wrapper struct {
	opts     optSpec
	own      rule // the wrapper itself (sudo: Destructive)
	bare     rule // when no command follows (env prints the environment)
	assigns  bool // NAME=value words may precede the command (env, sudo)
	operands int  // operands before the command (timeout's DURATION)
	stdin    bool // the command inherits the wrapper's standard input
	// special handles cases that are not "options then command" (command -v, env -S);
	// it returns done=true with the verdict when it has decided.
	special func(x *call, opts []opt, rest []arg) (v verdict, done bool)
}

func longs(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// wrappers are unwrapped to classify the command they run. Filled by loadTables, which
// also breaks the initialization cycle wrappers -> unwrap -> argv -> wrappers.
var wrappers map[string]*wrapper

// buildWrappers fills wrappers (see loadTables).
func buildWrappers() {
	passive := func(name, does string) rule { return rule{ReadOnly, name + " " + does} }
	root := func(name string) rule { return rule{Destructive, name + " runs a command as another user (root)"} }
	wrappers = map[string]*wrapper{
		"env": {
			opts:    optSpec{value: "uCS", long: longs("unset", "chdir", "split-string")},
			own:     passive("env", "only sets the environment"),
			bare:    passive("env", "prints the environment"),
			assigns: true, stdin: true,
			special: envSplit,
		},
		"nice": {
			opts: optSpec{value: "n", long: longs("adjustment"), numeric: true},
			own:  passive("nice", "only changes priority"), bare: passive("nice", "prints the priority"), stdin: true,
		},
		"nohup":    {own: passive("nohup", "only ignores hangups"), bare: passive("nohup", "without a command does nothing"), stdin: true},
		"setsid":   {own: passive("setsid", "only starts a session"), bare: passive("setsid", "without a command does nothing"), stdin: true},
		"unbuffer": {own: passive("unbuffer", "only changes buffering"), bare: passive("unbuffer", "without a command does nothing"), stdin: true},
		"busybox":  {own: passive("busybox", "runs one of its applets"), bare: passive("busybox", "lists its applets"), stdin: true},
		"builtin":  {own: passive("builtin", "runs a shell builtin"), bare: passive("builtin", "without a command does nothing"), stdin: true},
		"time": {
			opts: optSpec{value: "of", long: longs("output", "format")},
			own:  passive("time", "only measures time"), bare: passive("time", "without a command does nothing"), stdin: true,
			special: func(x *call, opts []opt, rest []arg) (verdict, bool) {
				if f, ok := optValue(opts, "-o", "--output"); ok {
					v := verdict{Mutating, "time -o writes " + f}
					v.raise(x.innerStdin(rest))
					return v, true
				}
				return verdict{}, false
			},
		},
		"timeout": {
			opts:     optSpec{value: "sk", long: longs("signal", "kill-after")},
			own:      passive("timeout", "only limits run time"),
			bare:     passive("timeout", "without a command does nothing"),
			operands: 1, stdin: true,
		},
		"stdbuf": {
			opts: optSpec{value: "ioe", long: longs("input", "output", "error")},
			own:  passive("stdbuf", "only changes buffering"), bare: passive("stdbuf", "without a command does nothing"), stdin: true,
		},
		"ionice": {
			opts: optSpec{value: "cnpPu", long: longs("class", "classdata", "pid", "pgid", "uid")},
			own:  passive("ionice", "only changes I/O priority"), bare: passive("ionice", "prints the I/O priority"), stdin: true,
		},
		"caffeinate": {
			opts: optSpec{value: "tw"},
			own:  passive("caffeinate", "only prevents sleep"), bare: passive("caffeinate", "only prevents sleep"), stdin: true,
		},
		"command": {
			own: passive("command", "runs a command bypassing functions"), bare: passive("command", "without a command does nothing"), stdin: true,
			special: func(x *call, opts []opt, rest []arg) (verdict, bool) {
				if has(opts, "-v", "-V") {
					return verdict{ReadOnly, "command -v only looks a command up"}, true
				}
				return verdict{}, false
			},
		},
		"exec": {
			opts: optSpec{value: "a"},
			own:  passive("exec", "replaces the shell with a command"), bare: passive("exec", "without a command only applies redirections"), stdin: true,
		},
		"xargs": {
			opts: optSpec{value: "adEILnPs", optional: "eil",
				long: longs("arg-file", "delimiter", "eof", "max-args", "max-procs", "max-chars", "process-slot-var")},
			own:  passive("xargs", "runs a command on its input"),
			bare: passive("xargs", "without a command runs echo"),
		},
		"watch": {
			opts: optSpec{value: "nqd", long: longs("interval", "equexit")},
			own:  passive("watch", "runs a command repeatedly"), bare: passive("watch", "without a command does nothing"),
			special: func(x *call, opts []opt, rest []arg) (verdict, bool) {
				if len(rest) == 0 {
					return verdict{}, false
				}
				if has(opts, "-x", "--exec") { // argv, not a shell string
					return verdict{}, false
				}
				v := verdict(wrappers["watch"].own)
				v.raise(joinedScript(x, "watch", rest)) // watch runs its arguments with sh -c
				return v, true
			},
		},
		"sudo": {
			opts: optSpec{value: "ugCDhprtTU",
				long: longs("user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "command-timeout", "other-user")},
			own: root("sudo"), bare: root("sudo"), assigns: true, stdin: true,
		},
		"doas":    {opts: optSpec{value: "uC"}, own: root("doas"), bare: root("doas"), stdin: true},
		"runuser": {opts: optSpec{value: "ugGlcsw", long: longs("user", "group", "supp-group", "command", "shell")}, own: root("runuser"), bare: root("runuser"), stdin: true},
		"strace": {
			opts: optSpec{value: "abeEIoOpPsSuUX", long: longs("output", "attach", "user", "trace", "signal", "string-limit")},
			own:  passive("strace", "only traces a command"), bare: passive("strace", "without a command does nothing"), stdin: true,
		},
		"ltrace": {
			opts: optSpec{value: "aAeFlnopsuwxX", long: longs("output", "library", "align")},
			own:  passive("ltrace", "only traces a command"), bare: passive("ltrace", "without a command does nothing"), stdin: true,
		},
		"valgrind": {own: passive("valgrind", "only checks a command"), bare: passive("valgrind", "without a command does nothing"), stdin: true},
		"pkexec":   {opts: optSpec{long: longs("user")}, own: root("pkexec"), bare: root("pkexec"), stdin: true},
	}
}

// unwrap classifies a wrapper: its options, then the command it runs.
func unwrap(x *call, w *wrapper) verdict {
	opts, rest := w.opts.leading(x.args)
	if w.special != nil {
		if v, done := w.special(x, opts, rest); done {
			return v
		}
	}
	v := verdict(w.own)
	if w.assigns {
		for len(rest) > 0 && rest[0].lit && isAssign(rest[0].val) {
			name, value, _ := strings.Cut(rest[0].val, "=")
			v.raise(x.c.envVar(name, arg{val: value, lit: true, key: rest[0].key}, x.depth))
			rest = rest[1:]
		}
	}
	rest = rest[min(w.operands, len(rest)):]
	if len(rest) == 0 {
		b := verdict(w.bare)
		b.raise(v)
		return b
	}
	if w.stdin {
		v.raise(x.innerStdin(rest))
	} else {
		v.raise(x.inner(rest))
	}
	return v
}

// envSplit handles env -S "CMD ARGS": the string is split into words, which is close enough to
// parsing it as shell code to find the command.
func envSplit(x *call, opts []opt, rest []arg) (verdict, bool) {
	s, ok := optValue(opts, "-S", "--split-string")
	if !ok {
		return verdict{}, false
	}
	for _, a := range x.args {
		if !a.lit {
			return verdict{Destructive, "env -S with a computed command (dynamic code)"}, true
		}
	}
	at := x.self
	if len(x.args) > 0 {
		at = x.args[0]
	}
	text := s
	for _, a := range rest {
		text += " " + shellQuote(a.val)
	}
	v := verdict(wrappers["env"].own)
	v.raise(x.script(text, at))
	return v, true
}

// joinedScript classifies words that a command joins with spaces and runs as shell code
// (watch, ssh host CMD, git submodule foreach).
func joinedScript(x *call, what string, words []arg) verdict {
	parts := make([]string, len(words))
	for i, a := range words {
		if !a.lit {
			return verdict{Destructive, what + " runs a computed command (dynamic code)"}
		}
		parts[i] = a.val
	}
	return x.script(strings.Join(parts, " "), words[0])
}

// shellQuote quotes s for a shell script so it stays one literal word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

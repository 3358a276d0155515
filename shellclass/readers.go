package shellclass

import (
	"strings"
)

// Commands that read or print, unless an option makes them write a file, run a program or set
// a variable that changes what later commands run.

// projectCode makes a handler for a test runner or checker that loads the project's own code
// (pytest's conftest.py, mypy plugins, eslint.config.js): a file the agent wrote runs, so it is
// Mutating like running a local program; --version and --help only print.
func projectCode(name, does string) func(*call) verdict {
	return func(x *call) verdict {
		if onlyVersion(x.args) {
			return verdict{ReadOnly, name + " only prints its version"}
		}
		return verdict{Mutating, name + " " + does}
	}
}

// assignVar classifies a builtin storing a value the command line does not show (printf -v,
// read, mapfile) in the variable name, as envVar does for NAME=value: PATH, LD_PRELOAD or
// PROMPT_COMMAND change what later commands run. A subscript (a[$(cmd)]) is evaluated as code.
func assignVar(x *call, what string, name arg) verdict {
	if !name.lit {
		return verdict{Destructive, what + " assigns a computed variable name " + name.val + " (dynamic code)"}
	}
	n, sub, indexed := strings.Cut(name.val, "[")
	if indexed && strings.ContainsAny(sub, "$`") {
		return verdict{Destructive, what + " " + name.val + " evaluates its subscript as code (dynamic code)"}
	}
	v := x.c.envVar(n, arg{val: name.val, lit: false, key: name.key}, x.depth)
	if v.Class > ReadOnly {
		v.Reason = what + " " + n + ": " + v.Reason
	}
	return v
}

// printfCmd: printf prints, or with -v VAR assigns VAR.
func printfCmd(x *call) verdict {
	v := verdict{ReadOnly, "printf only prints"}
	if len(x.args) == 0 || !x.args[0].lit || !strings.HasPrefix(x.args[0].val, "-v") {
		return v
	}
	name := arg{val: strings.TrimPrefix(x.args[0].val, "-v"), lit: true, key: x.args[0].key}
	if name.val == "" {
		if len(x.args) < 2 {
			return v
		}
		name = x.args[1]
	}
	v = verdict{ReadOnly, "printf -v only sets a shell variable"}
	v.raise(assignVar(x, "printf -v", name))
	return v
}

// readCmd: read assigns the variables it names (and -a ARRAY) from its input.
func readCmd(x *call) verdict {
	opts, names := optSpec{value: "adinNptu"}.leading(x.args)
	v := verdict{ReadOnly, "read only sets shell variables"}
	for _, o := range opts {
		if o.name == "-a" {
			names = append(names, arg{val: o.value, lit: !o.dynamic, key: x.self.key})
		}
	}
	for _, n := range names {
		v.raise(assignVar(x, "read", n))
	}
	return v
}

// mapfileCmd: mapfile (readarray) fills an array from its input; -C CALLBACK runs shell code
// every -c lines, with the index and the line appended as arguments.
func mapfileCmd(x *call) verdict {
	opts, names := optSpec{value: "dnOsuCc"}.leading(x.args)
	v := verdict{ReadOnly, x.name + " only sets a shell array"}
	for _, n := range names[:min(1, len(names))] {
		v.raise(assignVar(x, x.name, n))
	}
	if cb, ok := optValue(opts, "-C"); ok {
		if optDynamic(opts, "-C") {
			return verdict{Destructive, x.name + " -C runs a computed callback (dynamic code)"}
		}
		v.raise(verdict{Mutating, x.name + " -C runs a callback for the lines it reads"})
		v.raise(x.script(cb, x.self))
	}
	return v
}

// historyCmd: history lists or edits the shell's history list; -w and -a write the history
// file (or FILE).
func historyCmd(x *call) verdict {
	opts, operands := optSpec{value: "d"}.leading(x.args)
	if !has(opts, "-w", "-a") {
		return verdict{ReadOnly, "history only lists or changes the shell's history list"}
	}
	if len(operands) > 0 {
		return writeTarget("history -w", "writes", operands[0])
	}
	return verdict{Mutating, "history -w writes the history file"}
}

// hostnameCmd: hostname prints the host name; with a name (or -F FILE) it sets it.
func hostnameCmd(x *call) verdict {
	opts, operands := optSpec{value: "F", long: longs("file")}.scan(x.args)
	if len(operands) > 0 || has(opts, "-F", "--file", "-b", "--boot") {
		return verdict{Mutating, "hostname NAME sets the machine's host name"}
	}
	return verdict{ReadOnly, "hostname only prints"}
}

// dateCmd: date prints; -s/--set or an operand that is not a +FORMAT sets the system clock.
func dateCmd(x *call) verdict {
	opts, operands := optSpec{value: "dfrsz", optional: "I",
		long: longs("date", "file", "reference", "set", "rfc-3339", "resolution")}.scan(x.args)
	if has(opts, "-s", "--set") {
		return verdict{Mutating, "date -s sets the system clock"}
	}
	for _, o := range operands {
		if !o.lit || !strings.HasPrefix(o.val, "+") {
			return verdict{Mutating, "date " + o.val + " sets the system clock"}
		}
	}
	return verdict{ReadOnly, "date only prints"}
}

// lessSpec are less's options that take a value.
var lessSpec = optSpec{value: "bhjkoOpPtTxyz#", long: longs("lesskey-file", "lesskey-src", "lesskey-content",
	"log-file", "LOG-FILE", "tag", "tag-file", "pattern", "prompt", "shift", "max-back-scroll",
	"max-forw-scroll", "tabs", "window", "quotes", "line-num-width", "status-col-width")}

// lessCmd: less shows files; +!CMD (an initial command) runs CMD, +|mCMD pipes to CMD, -o FILE
// writes a log of its input, and -k FILE loads key bindings, which can set LESSOPEN.
func lessCmd(x *call) verdict {
	opts, operands := lessSpec.scan(x.args)
	v := verdict{ReadOnly, x.name + " only shows files"}
	for _, o := range opts {
		switch o.name {
		case "-o", "-O", "--log-file", "--LOG-FILE":
			v.raise(writeTarget(x.name+" "+o.name, "writes", arg{val: o.value, lit: !o.dynamic}))
		case "-k", "--lesskey-file", "--lesskey-src", "--lesskey-content":
			v.raise(verdict{Mutating, x.name + " " + o.name + " loads key bindings, which can run commands"})
		}
	}
	for _, a := range operands {
		if !strings.HasPrefix(a.val, "+") {
			continue
		}
		if !a.lit {
			v.raise(verdict{Destructive, x.name + " runs a computed initial command " + a.val + " (dynamic code)"})
			continue
		}
		cmd := strings.TrimLeft(a.val, "+")
		if strings.HasPrefix(cmd, "/") || strings.HasPrefix(cmd, "?") {
			continue // a search: the pattern takes the rest
		}
		if i := strings.IndexAny(cmd, "!|"); i >= 0 {
			rest := cmd[i+1:]
			if cmd[i] == '|' && rest != "" {
				rest = rest[1:] // the mark before the command
			}
			v.raise(verdict{Mutating, x.name + " " + a.val + " runs a shell command"})
			v.raise(x.script(rest, a))
		}
	}
	return v
}

// manSpec are man's options that take a value (man-db); -H, -T and -X take an attached one.
var manSpec = optSpec{value: "CLmMSseEPrpR", optional: "HTX", long: longs("config-file", "locale", "systems",
	"manpath", "sections", "extension", "pager", "prompt", "encoding", "preprocessor", "recode")}

// manCmd: man shows manual pages through a pager: -P/--pager CMD is classified as the command
// it is; -H/--html starts a web browser; -C FILE reads a configuration that can name programs.
func manCmd(x *call) verdict {
	opts, _ := manSpec.scan(x.args)
	v := verdict{ReadOnly, "man only shows manual pages"}
	for _, o := range opts {
		switch o.name {
		case "-P", "--pager":
			if o.dynamic {
				v.raise(verdict{Destructive, "man " + o.name + " runs a computed pager (dynamic code)"})
			} else {
				v.raise(x.script(o.value, x.self))
			}
		case "-H", "--html":
			v.raise(verdict{Mutating, "man " + o.name + " starts a web browser"})
			if o.value != "" {
				v.raise(x.script(o.value, x.self))
			}
		case "-C", "--config-file":
			v.raise(verdict{Mutating, "man " + o.name + " reads a configuration that can name programs to run"})
		}
	}
	return v
}

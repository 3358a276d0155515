package planshell

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// The handlers cover the interpreter's file access, but a few of its corners reach the
// host directly. This file closes them: process substitution (a FIFO in the host's
// temporary directory), the FIFO shortcut of its open, ~user (the host's user
// database), and the builtins type, command -v, pwd -P and source (stats of PATH
// entries and of the script, symlink resolution on the host).

// noTmpdir is the interpreter's temporary directory: a name that no file can have, so
// that it can neither create a FIFO on the host nor open a host file that it takes for
// one of its FIFOs. Run unsets TMPDIR before the command runs.
const noTmpdir = "/\x00planshell"

var unsetTmpdir = mustParse("unset TMPDIR")

// mustParse parses the one statement of src, which is a constant of this package.
func mustParse(src string) *syntax.Stmt {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		panic(err)
	}
	return f.Stmts[0]
}

// newEnviron returns the minimal environment of a run with the extra "K=V" pairs.
func newEnviron(extra []string) expand.Environ {
	pairs := append([]string{"HOME=/", "PATH=/bin"}, extra...)
	return environ{expand.ListEnviron(append(pairs, "TMPDIR="+noTmpdir)...)}
}

// environ answers every "HOME <user>" lookup, which the expansion of ~user makes before
// it asks the host's user database, with "~user": ~user stays as written.
type environ struct{ expand.Environ }

func (e environ) Get(name string) expand.Variable {
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: "~" + user}
	}
	return e.Environ.Get(name)
}

// checkSupported refuses process substitution, <(...) and >(...), which needs a FIFO.
func checkSupported(file *syntax.File) error {
	var err error
	syntax.Walk(file, func(node syntax.Node) bool {
		if ps, ok := node.(*syntax.ProcSubst); ok && err == nil {
			err = fmt.Errorf("%w: %s: process substitution is not supported in plan mode", ErrSyntax, ps.Pos())
		}
		return err == nil
	})
	return err
}

// sourceMark ends the script name that guardCall gives source: the interpreter's search
// for the script on the host fails on it without a system call, and the open handler
// removes it.
const sourceMark = "\x00"

// guardCall runs before every simple command. It answers type and command -v itself,
// turns pwd -P into pwd -L and marks the script of source (made absolute, so that it
// is not searched on PATH), through "builtin" and "command" prefixes too.
func guardCall(ctx context.Context, args []string) ([]string, error) {
	i := 0
	for i < len(args)-1 && (args[i] == "builtin" || args[i] == "command" && args[i+1] != "-v") {
		i++
	}
	name, rest := args[i], args[i+1:]
	switch {
	case name == "type" || name == "command" && len(rest) > 0:
		if lookup(interp.HandlerCtx(ctx), name, rest) {
			return []string{"builtin", "true"}, nil
		}
		return []string{"builtin", "false"}, nil
	case name == "pwd":
		out := slices.Clone(args)
		for j := i + 1; j < len(out); j++ {
			if out[j] == "-P" {
				out[j] = "-L"
			}
		}
		return out, nil
	case (name == "source" || name == ".") && len(rest) > 0:
		out := slices.Clone(args)
		out[i+1] = abs(ctx, rest[0]) + sourceMark
		return out, nil
	}
	return args, nil
}

// lookup is type and command -v over what plan mode can run (keywords, the
// interpreter's builtins and [Commands]); nothing is searched on PATH and shell
// functions are not seen. It reports whether every name was found.
func lookup(hc interp.HandlerContext, name string, args []string) bool {
	mode := "-v" // command -v
	if name == "type" {
		mode = ""
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			switch args[0] {
			case "-t", "-p", "-P":
				mode = args[0]
			default:
				fmt.Fprintf(hc.Stderr, "type: unknown option %s\n", args[0])
				return false
			}
			args = args[1:]
		}
	} else {
		args = args[1:]
	}
	found := true
	for _, a := range args {
		kind := ""
		switch {
		case syntax.IsKeyword(a):
			kind = "keyword"
		case interp.IsBuiltin(a) || builtins[a] != nil:
			kind = "builtin"
		}
		switch {
		case kind == "":
			found = false
			if mode == "" {
				fmt.Fprintf(hc.Stderr, "type: %s: not found\n", a)
			}
		case mode == "-v":
			fmt.Fprintln(hc.Stdout, a)
		case mode == "-t":
			fmt.Fprintln(hc.Stdout, kind)
		case mode == "":
			fmt.Fprintf(hc.Stdout, "%s is a shell %s\n", a, kind)
		}
	}
	return found
}

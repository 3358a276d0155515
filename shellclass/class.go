package shellclass

import (
	"fmt"
	"strings"
)

// Class is a command's risk, ordered: a command line's class is the highest of its parts.
type Class int

// The classes, from least to most risky.
const (
	ReadOnly    Class = iota // reads files or prints; changes nothing
	Mutating                 // changes local files or state in a way that is normally recoverable
	Network                  // talks to another machine: downloads, uploads, publishes
	Destructive              // deletes or overwrites data, rewrites history, runs as root, or cannot be analysed
)

var classNames = [...]string{"read-only", "mutating", "network", "destructive"}

// String returns "read-only", "mutating", "network" or "destructive".
func (c Class) String() string {
	if c >= 0 && int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// MarshalText encodes the class as its String, so JSON and logs show the name.
func (c Class) MarshalText() ([]byte, error) {
	if c < 0 || int(c) >= len(classNames) {
		return nil, fmt.Errorf("shellclass: invalid class %d", int(c))
	}
	return []byte(c.String()), nil
}

// Command is one simple command found in the line (after unwrapping wrappers), for policies that
// match on commands: e.g. {Name: "git", Args: ["push", "--force"], Class: Destructive,
// Reason: "git push --force rewrites remote history"}.
//
// A wrapper (env, timeout, xargs, sudo, find -exec, bash -c, ...) is listed itself, with the highest
// class of itself and what it runs, and the commands it runs follow it. Every redirection that
// raises the class, attached to a command or not ("echo x > f", "> f", "{ ls; } 2> f"), is also
// listed as a Command with an empty Name and Args its operator and target ([">", "f"]), and
// risky assignments (BASH_ENV=x make, PATH=. alone) as one with Args the assignments, so that
// a policy can record and match what a line writes and sets.
type Command struct {
	Name   string   // program name as written (base name if a path, e.g. /bin/rm -> rm)
	Args   []string // literal arguments; a non-literal word (with $var, $(...), globs) is kept as its source text
	Class  Class
	Reason string // why this class, one short phrase
}

// Result is the classification of a whole command line.
type Result struct {
	Class    Class
	Commands []Command // every simple command, in source order, including those inside pipelines, lists (&& || ;), subshells, { } groups, $(...) and `...` substitutions, <(...) process substitutions, if/while/for/case bodies, function bodies, and the inner command of wrappers
	Reasons  []string  // the distinct reasons that raised the class above read-only
	Parsed   bool      // false when the line could not be parsed (then Class is Destructive)
}

// Classify parses and classifies line. Unparsable input is Destructive with Parsed false and a
// reason quoting the parser's error.
func Classify(line string) (res Result) {
	loadTables()
	if len(line) > maxInput {
		return unparsed(fmt.Sprintf("command line is %d bytes, over the %d KiB limit; not analysed", len(line), maxInput>>10))
	}
	f, err := parse(line)
	if err != nil {
		return unparsed("cannot parse command line: " + err.Error())
	}
	c := newClassifier()
	defer c.recover(&res)
	c.file(&pctx{src: line}, f.Stmts, 0)
	return c.result()
}

// ClassifyArgv classifies a command given as an argv (no shell), e.g. ["git","push","-f"].
// Every element is literal: no quoting, expansion or globbing applies, but wrappers are still
// unwrapped and "bash -c STRING" is still parsed.
func ClassifyArgv(argv []string) (res Result) {
	loadTables()
	if n := argvSize(argv); n > maxInput {
		return unparsed(fmt.Sprintf("argv is %d bytes, over the %d KiB limit; not analysed", n, maxInput>>10))
	}
	c := newClassifier()
	defer c.recover(&res)
	if len(argv) > 0 {
		args := make([]arg, len(argv))
		for i, s := range argv {
			args[i] = arg{val: s, lit: true, key: []int{i}}
		}
		c.argv(&pctx{}, args, input{}, 0, false)
	}
	return c.result()
}

// unparsed is the result for input that was not analysed.
func unparsed(reason string) Result {
	return Result{Class: Destructive, Reasons: []string{reason}, Parsed: false}
}

func argvSize(argv []string) int {
	n := 0
	for _, s := range argv {
		n += len(s) + 1
	}
	return n
}

// internalErrorPrefix starts the reason recorded when classification panicked (a bug).
const internalErrorPrefix = "internal error: "

// recover turns a panic (a bug) into a Destructive result instead of crashing the caller.
func (c *classifier) recover(res *Result) {
	if r := recover(); r != nil {
		c.entries = append(c.entries, entry{cmd: Command{
			Class:  Destructive,
			Reason: internalErrorPrefix + strings.TrimSpace(fmt.Sprint(r)),
		}})
		*res = c.result()
	}
}

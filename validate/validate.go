// Package validate tells whether file content parses, for the kinds of file it
// knows by extension: Go, JSON, Lua, the Lisp family, YAML and TOML.
//
// It answers that one question and keeps no state. The rule built on it (an
// edit may not turn a file that parsed into one that does not, unless forced;
// a file that was already broken can always be edited) belongs to the caller.
//
// Positions are 1-based; columns count bytes, as go/token does. Check is safe
// for concurrent use.
package validate

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// Problem is why content does not parse.
type Problem struct {
	// Kind names the checker that found the problem: "go", "json", "lua",
	// "emacs-lisp", "common-lisp", "scheme", "racket", "clojure", "yaml" or
	// "toml".
	Kind string
	// Line and Column locate the problem, 1-based, Column in bytes; either
	// is 0 when the parser does not say.
	Line, Column int
	// Message is the parser's explanation, without position or kind.
	Message string
	// Unchecked is true when the content was refused or the parser failed
	// (too large, too deeply nested, a panic) rather than a syntax error
	// found: the content may be valid.
	Unchecked bool
}

// Error formats the problem as "json: line 3, column 5: invalid character ...",
// leaving out the parts of the position that are unknown.
func (p *Problem) Error() string {
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s: line %d, column %d: %s", p.Kind, p.Line, p.Column, p.Message)
	case p.Line > 0:
		return fmt.Sprintf("%s: line %d: %s", p.Kind, p.Line, p.Message)
	}
	return p.Kind + ": " + p.Message
}

// checker parses one kind of file; its Problem needs no Kind.
type checker struct {
	kind  string
	check func(src []byte) *Problem
}

// checkers maps lowercase extensions to their checker.
var checkers = map[string]checker{
	".go":   {"go", checkGo},
	".json": {"json", checkJSON},
	".lua":  {"lua", checkLua},
	".yaml": {"yaml", checkYAML},
	".yml":  {"yaml", checkYAML},
	".toml": {"toml", checkTOML},
	".el":   {"emacs-lisp", emacsLisp.check},
	".lisp": {"common-lisp", commonLisp.check},
	".lsp":  {"common-lisp", commonLisp.check},
	".scm":  {"scheme", scheme.check},
	".ss":   {"scheme", scheme.check},
	".rkt":  {"racket", racket.check},
	".clj":  {"clojure", clojure.check},
	".cljs": {"clojure", clojure.check},
	".cljc": {"clojure", clojure.check},
	".edn":  {"clojure", clojure.check},
}

// Kind names the checker for path, by its extension in any case; "" when
// none.
func Kind(path string) string {
	return checkers[strings.ToLower(filepath.Ext(path))].kind
}

// Check reports whether content parses as the kind of file path names; nil
// when it does or when the kind is not checked. Only the extension of path is
// used; nothing is read from disk.
func Check(path string, content []byte) (p *Problem) {
	c, ok := checkers[strings.ToLower(filepath.Ext(path))]
	if !ok {
		return nil
	}
	defer func() {
		// A parser bug must not take the caller down. (A Go stack
		// overflow cannot be recovered: the checkers avoid deep recursion
		// instead; see checkLua.)
		if r := recover(); r != nil {
			p = &Problem{Message: fmt.Sprintf("parser failed: %v", r), Unchecked: true}
		}
		if p != nil {
			p.Kind = c.kind
		}
	}()
	return c.check(content)
}

// problemAt is a Problem located at byte offset off of src.
func problemAt(src []byte, off int, format string, args ...any) *Problem {
	line, column := position(src, off)
	return &Problem{Line: line, Column: column, Message: fmt.Sprintf(format, args...)}
}

// position turns byte offset off of src, clamped to src, into a 1-based line
// and byte column. Lines end at '\n'.
func position(src []byte, off int) (line, column int) {
	off = min(max(off, 0), len(src))
	before := src[:off]
	start := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte{'\n'}) + 1, off - start + 1
}

// lineEnd returns the offset of the '\n' that ends the line holding offset i,
// or len(src).
func lineEnd(src []byte, i int) int {
	if end := bytes.IndexByte(src[i:], '\n'); end >= 0 {
		return i + end
	}
	return len(src)
}

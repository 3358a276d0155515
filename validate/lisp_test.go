package validate

import "testing"

var lispCases = []checkCase{
	// Emacs Lisp
	{name: "elisp character literals", path: "a.el", src: `;;; a.el --- test -*- lexical-binding: t -*-
(defun my-open-p (c)
  "Return non-nil if C is ?( or \"(\"; see (info \"(elisp) Basic Char Syntax\")."
  (memq c '(?\( ?\[ ?( ?\" ?\; ?; ?")))  ; a comment with ) and (
(defvar my-closers [?) ?\) ?\] ?\\ ?] ??])
(defun empty? () (message "%s" "unbalanced ) in a string"))
`},
	{name: "elisp ? inside a symbol is no literal", path: "a.el", src: "(f a?(b))"},
	{name: "elisp braces are symbol characters", path: "a.el", src: "(setq x '{)"},
	{name: "elisp escaped character in a symbol", path: "a.el", src: "(setq foo\\(bar 1)"},
	{name: "elisp unclosed defun", path: "a.el", src: "(defun f ()\n  (message \"hi\")", line: 1, column: 1, msg: "( is never closed (1 unclosed at end of file)"},
	{name: "elisp innermost unclosed", path: "a.el", src: "(a\n  (b\n(c)", line: 2, column: 3, msg: "( is never closed (2 unclosed"},
	{name: "elisp extra closer", path: "a.el", src: "(foo))", line: 1, column: 6, msg: ") closes nothing"},
	{name: "elisp mismatched closer", path: "a.el", src: "(let [(a 1)) a)", line: 1, column: 12, msg: ") does not close [ at line 1, column 6"},
	{name: "elisp unterminated string", path: "a.el", src: "(message \"abc)\n", line: 1, column: 10, msg: `" is never closed`},
	{name: "elisp ?\\ then newline", path: "a.el", src: "(list ?\\\n", line: 1, column: 1, msg: "( is never closed"},

	// Common Lisp
	{name: "cl character literals and block comments", path: "a.lisp", src: `(defun f (c)
  #| block comment with ( and
     #| nested |# ) |#
  (case c
    (#\( 'open)
    (#\) 'close)
    (#\; 'semi)
    (#\" 'quote)
    (#\\ 'backslash)))
(defvar |weird(symbol| 1) ; comment (
`},
	{name: "cl brackets are symbol characters", path: "a.lsp", src: "(a [b)"},
	{name: "cl unclosed block comment", path: "a.lisp", src: "#| unclosed #| nested |#\n(foo)", line: 1, column: 1, msg: "block comment #| is never closed"},
	{name: "cl extra closer", path: "a.lisp", src: "(defun f ()\n  (car x)))", line: 2, column: 11, msg: ") closes nothing"},
	{name: "cl escaped quote in string", path: "a.lisp", src: "(print \"a\\\"b)", line: 1, column: 8, msg: `" is never closed`},
	{name: "cl unterminated bar symbol", path: "a.lisp", src: "(a |b)", line: 1, column: 4, msg: "| is never closed"},

	// Scheme and Racket
	{name: "scheme characters, brackets, datum comment", path: "a.scm", src: "(define (f c) (case c ((#\\( #\\[) 'open) (else #f)))\n#| c ( |#\n(let ([x 1]) x)\n#;(ignored datum)\n"},
	{name: "scheme bar is a symbol character", path: "a.ss", src: "(define a|b 1)"},
	{name: "scheme mismatched bracket", path: "a.scm", src: "(let ([x 1)) x)", line: 1, column: 11, msg: ") does not close [ at line 1, column 7"},
	{name: "racket bars and braces", path: "a.rkt", src: "#lang racket\n(define |odd (name| 1)\n(struct point {x y})\n(displayln #\\()\n"},
	{name: "racket mismatched brace", path: "a.rkt", src: "#lang racket\n(define (f)\n  {+ 1 2)\n", line: 3, column: 9, msg: ") does not close { at line 3, column 3"},

	// Clojure and EDN
	{name: "clojure characters, sets, maps, regexes", path: "a.clj", src: `(ns demo.core)
(defn open? [c] (#{\( \[ \{} c))
(def m {:a 1, :b [1 2 3], :s "str with ) and ;"})
(def re #"\(\d+\)")
#_(ignored form)
(println \) \" \; \\) ; trailing comment (
`},
	{name: "clojurescript", path: "a.cljs", src: "(js/console.log #js {:a [1 2]})"},
	{name: "edn", path: "config.edn", src: "{:deps {org.clojure/clojure {:mvn/version \"1.12.0\"}} :paths [\"src\"]}"},
	{name: "clojure unclosed defn", path: "a.cljc", src: "(defn f [x]\n  (inc x)", line: 1, column: 1, msg: "( is never closed"},
	{name: "clojure map closed by bracket", path: "a.clj", src: "{:a 1]", line: 1, column: 6, msg: "] does not close { at line 1, column 1"},
	{name: "edn unclosed map", path: "config.edn", src: "{:a #{1 2}", line: 1, column: 1, msg: "{ is never closed"},
	{name: "clojure unterminated string", path: "a.clj", src: "(str \"a)\n(b)", line: 1, column: 6, msg: `" is never closed`},
}

func TestCheckLisp(t *testing.T) { runCases(t, lispCases) }

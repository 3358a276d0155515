// Package edit decides where a text edit applies in a file, or refuses it.
//
// An edit is "replace old_string with new_string", as an LLM coding agent writes it. Models
// copy old_string imperfectly: curly quotes for straight ones, spaces for tabs, a shifted
// block, over-escaped strings. Apply forgives those, one named strategy at a time from the
// strictest to the loosest, and stops at the first that finds something:
//
//   - exact: old_string as it is;
//   - typography: curly quotes, dashes, Unicode spaces and "…" count as their ASCII forms,
//     zero-width characters as nothing, and the file keeps its own characters where
//     new_string keeps old_string's;
//   - trailing-whitespace, indentation, inner-whitespace, unicode-nfc: whole lines, every
//     line compared after dropping trailing whitespace; then leading whitespace too (the
//     block may be shifted or use tabs for spaces, but not be nested differently, and
//     new_string is re-indented to the file); then runs of whitespace inside lines; then
//     with text in Unicode normalization form C;
//   - typography+trailing-whitespace, typography+indentation, typography+inner-whitespace:
//     both kinds of difference in the same old_string;
//   - single-line-whitespace: a one-line old_string inside a line, any run of blanks
//     matching any other;
//   - unescape: an old_string with backslash sequences (\n, \t, \", \', \`, \$, \\)
//     that matched nowhere is unescaped and looked up again by the strategies above;
//     new_string is unescaped fully when it is over-escaped as consistently, else not at
//     all;
//   - blank-lines, code-fence: blank lines that start or end both strings, or a Markdown
//     code fence around both, are dropped from both and the lookup runs again.
//
// A step after exact that matched through another strategy is reported as "step+strategy".
//
// It never guesses: a strategy that finds old_string more than once is an ambiguity error,
// every line of a multi-line old_string must match (no first/last-line anchors, no
// similarity threshold), a loose match inside a line starts and ends on word boundaries
// (and at its line's start or end when old_string says so with indentation or a line
// break), and similarity is only used to show the closest text in a not-found error. A
// new_string that replaces real lines with a placeholder ("// ... existing code ...") is
// refused: written literally, it would delete them.
//
// Files are taken as they are: CRLF or mixed line endings, a UTF-8 byte order mark and the
// presence or absence of a final newline survive an edit, lines the edit does not touch are
// written back byte for byte, and so are the lines of a loosely matched block that
// new_string leaves as old_string had them.
//
// The package is pure: it works on strings and knows nothing of files on disk.
package edit

import "strings"

// Request is one edit: replace OldString with NewString, once, or everywhere with ReplaceAll.
type Request struct {
	OldString  string
	NewString  string
	ReplaceAll bool
}

// Result is a successful edit.
type Result struct {
	// Content is the new file content, in the file's own line endings and with its BOM.
	Content string
	// Strategy names how old_string was found: one of Strategies(), or for an over-escaped
	// old_string "unescape+NAME" when the unescaped text matched by a strategy NAME other
	// than exact; "line-range" for ApplyRange.
	Strategy string
	// Replacements is how many places were replaced.
	Replacements int
	// Edits are the lines of Content that hold the replacements, in order.
	Edits []Span
}

// Span is a range of lines, 1-based and inclusive. A deletion that left no text of its own
// is the empty range EndLine == StartLine-1, StartLine being the line that now follows it.
type Span struct {
	StartLine, EndLine int
}

// Apply performs req on content and returns the new content, or an *Error saying why the
// edit was refused: NotFound, Ambiguous, NoChange or Invalid.
//
// The text is literal: nothing in NewString is expanded. An empty OldString fills an empty
// file (creating it) and is refused for a file that has content.
func Apply(content string, req Request) (Result, error) {
	f := parseFile(content, req.NewString)
	old, repl := cleanInput(req.OldString), cleanInput(req.NewString)
	if old == repl {
		return Result{}, errIdentical()
	}
	if err := checkElision(old, repl); err != nil {
		return Result{}, err
	}
	var name string
	var ms []match
	switch {
	case old != "":
		var err error
		if name, ms, err = find(f.body, old, repl, req.ReplaceAll); err != nil {
			return Result{}, err
		}
	case f.body == "":
		name, ms = strategyExact, []match{{repl: repl}}
	default:
		return Result{}, errEmptyOld()
	}
	res := f.apply(ms, name)
	if res.Content == content {
		return Result{}, errUnchanged(name)
	}
	return res, nil
}

// Strategies returns the names of the matching strategies, strictest first: each is tried
// only if all before it found nothing.
func Strategies() []string {
	names := make([]string, 0, len(strategies)+1)
	for _, s := range strategies {
		names = append(names, s.name)
	}
	names = append(names, strategyUnescape)
	for _, n := range normalizations {
		names = append(names, n.name)
	}
	return names
}

// cleanInput brings a string of the request to the form the matcher works on: no byte order
// mark and LF line breaks. The file's own endings are restored when the result is written.
func cleanInput(s string) string {
	return toLF(strings.TrimPrefix(s, bom))
}

package web

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Elements that break the text of the "text" format: paragraph-like blocks stand between
// blank lines, line-like ones on lines of their own, and table cells are separated by a
// tab.
var (
	paragraphAtoms = map[atom.Atom]bool{
		atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true,
		atom.H6: true, atom.Pre: true, atom.Blockquote: true, atom.Ul: true, atom.Ol: true,
		atom.Dl: true, atom.Table: true, atom.Figure: true, atom.Hr: true, atom.Section: true,
		atom.Article: true, atom.Main: true, atom.Header: true, atom.Footer: true, atom.Details: true,
	}
	lineAtoms = map[atom.Atom]bool{
		atom.Br: true, atom.Div: true, atom.Li: true, atom.Tr: true, atom.Dt: true, atom.Dd: true,
		atom.Figcaption: true, atom.Summary: true, atom.Address: true, atom.Caption: true,
	}
	cellAtoms = map[atom.Atom]bool{atom.Td: true, atom.Th: true}
)

// blankLines matches three or more line breaks (with spaces between), which plainText
// collapses into one blank line.
var blankLines = regexp.MustCompile(`\n[ \t]*(\n[ \t]*)+\n`)

// plainText renders the (pruned) document as plain text: its text nodes with white space
// collapsed as a browser would, <pre> kept as it is, and line breaks where blocks end.
// It is the "text" format: no Markdown syntax to strip, and the layout of the page's
// blocks survives.
func plainText(doc *html.Node) string {
	var w textWriter
	w.node(doc, false)
	out := blankLines.ReplaceAllString(w.b.String(), "\n\n")
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// textWriter accumulates the text of plainText.
type textWriter struct {
	b     strings.Builder
	space bool // white space was seen since the last word: a space goes before the next one
}

// node writes the text below n; pre tells whether n is inside a <pre>.
func (w *textWriter) node(n *html.Node, pre bool) {
	switch n.Type {
	case html.TextNode:
		if pre {
			w.write(n.Data)
		} else {
			w.collapsed(n.Data)
		}
		return
	case html.ElementNode:
		pre = pre || n.DataAtom == atom.Pre
		switch {
		case cellAtoms[n.DataAtom] && n.PrevSibling != nil:
			w.write("\t")
		case w.atBreak():
		case paragraphAtoms[n.DataAtom]:
			w.write("\n\n")
		case lineAtoms[n.DataAtom]:
			w.write("\n")
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c, pre)
	}
	switch {
	case paragraphAtoms[n.DataAtom]:
		w.write("\n\n")
	case lineAtoms[n.DataAtom]:
		w.write("\n")
	}
}

// write writes s as it is.
func (w *textWriter) write(s string) {
	w.b.WriteString(s)
	w.space = false
}

// collapsed writes s with each run of white space as one space, and none at the start of
// a line or cell.
func (w *textWriter) collapsed(s string) {
	for _, r := range s {
		if unicode.IsSpace(r) {
			w.space = true
			continue
		}
		if w.space && !w.atBreak() {
			w.b.WriteByte(' ')
		}
		w.space = false
		w.b.WriteRune(r)
	}
}

// atBreak reports whether the text so far ends a line or cell (or is empty).
func (w *textWriter) atBreak() bool {
	s := w.b.String()
	return s == "" || s[len(s)-1] == '\n' || s[len(s)-1] == '\t'
}

package web

import (
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// newMarkdownConverter builds the HTML to Markdown converter. It is
// github.com/JohannesKaufmann/html-to-markdown/v2: maintained, CommonMark output, a table
// plugin (GitHub-style tables), relative links resolved against a base URL, and safe
// for concurrent use, so one serves a whole Fetcher.
func newMarkdownConverter() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		// Minimal padding: aligned columns cost the model tokens and tell it nothing.
		table.NewTablePlugin(table.WithHeaderPromotion(true), table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal)),
	))
}

// chrome are the elements dropped before conversion: code, styling, embedded objects,
// forms and the navigation around the content, none of which a reader of the page's text
// needs. header and footer count only outside <article> and <main> (see isChrome).
var chrome = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Noscript: true,
	atom.Template: true, atom.Iframe: true, atom.Svg: true, atom.Canvas: true,
	atom.Form: true, atom.Nav: true, atom.Header: true, atom.Footer: true, atom.Aside: true,
}

// isChrome reports whether n is dropped. A <header> or <footer> inside an <article> or
// <main> is the heading or byline of the content itself, so it stays.
func isChrome(n *html.Node) bool {
	if n.Type != html.ElementNode || !chrome[n.DataAtom] {
		return false
	}
	if n.DataAtom == atom.Header || n.DataAtom == atom.Footer {
		for p := n.Parent; p != nil; p = p.Parent {
			if p.DataAtom == atom.Article || p.DataAtom == atom.Main {
				return false
			}
		}
	}
	return true
}

// prune removes the chrome elements below n.
func prune(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if isChrome(c) {
			n.RemoveChild(c)
		} else {
			prune(c)
		}
		c = next
	}
}

// pageTitle is the text of the document's <title>, or of its first <h1> when the title is
// missing or empty.
func pageTitle(doc *html.Node) string {
	if t := collapseSpace(textOf(findElement(doc, atom.Title))); t != "" {
		return t
	}
	return collapseSpace(textOf(findElement(doc, atom.H1)))
}

// findElement returns the first element a below n in document order, or nil.
func findElement(n *html.Node, a atom.Atom) *html.Node {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == a {
			return d
		}
	}
	return nil
}

// textOf concatenates the text nodes below n (nil: "").
func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// collapseSpace trims s and turns each run of white space in it into one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

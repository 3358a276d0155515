package web

import (
	"net/url"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/jido-run/jido/tools/definitions"
	"golang.org/x/net/html"
)

// rendered is a body turned into what a FetchResult shows.
type rendered struct {
	content, title, media string
}

// render turns a fetched body, with its Content-Type header, into text: HTML in the
// requested format (links resolved against base), other text as it is, binary refused.
func render(md *converter.Converter, body []byte, header, format string, base *url.URL) (rendered, error) {
	media, kind := classifyBody(header, body)
	if kind == kindBinary {
		return rendered{}, binaryError(media)
	}
	text := decodeText(body, header)
	if kind != kindHTML {
		return rendered{content: text, media: media}, nil
	}
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return rendered{}, definitions.NewError(definitions.NetworkError, "cannot parse the HTML of %s: %v", base, err)
	}
	out := rendered{title: pageTitle(doc), media: media}
	switch format {
	case FormatHTML:
		out.content = text
	case FormatText:
		prune(doc)
		out.content = plainText(doc)
	default:
		prune(doc)
		b, err := md.ConvertNode(doc, converter.WithDomain(base.String()))
		if err != nil {
			return rendered{}, definitions.NewError(definitions.InternalError, "converting the HTML of %s to Markdown failed: %v", base, err)
		}
		out.content = string(b)
	}
	return out, nil
}

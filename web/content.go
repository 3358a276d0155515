package web

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/jido-run/jido/tools/definitions"
	"golang.org/x/net/html/charset"
)

// contentKind is what web_fetch does with a body.
type contentKind int

const (
	kindUnknown contentKind = iota // sniff the bytes
	kindHTML                       // convert per format
	kindText                       // return as text
	kindBinary                     // refuse
)

// mediaKind sorts a media type (lower case, without parameters) into a contentKind.
func mediaKind(media string) contentKind {
	switch {
	case media == "text/html" || media == "application/xhtml+xml":
		return kindHTML
	case strings.HasPrefix(media, "text/"),
		media == "application/json", media == "application/xml", media == "application/javascript",
		media == "application/ecmascript", media == "application/x-javascript",
		strings.HasSuffix(media, "+json"), strings.HasSuffix(media, "+xml"):
		return kindText
	case strings.HasPrefix(media, "image/"), strings.HasPrefix(media, "audio/"),
		strings.HasPrefix(media, "video/"), strings.HasPrefix(media, "font/"),
		media == "application/pdf", media == "application/zip", media == "application/gzip",
		media == "application/octet-stream", media == "application/wasm":
		return kindBinary
	}
	return kindUnknown
}

// classifyBody returns the media type of a body (from its Content-Type header, or sniffed
// when that is missing or unknown) and what to do with it. Bytes containing NUL are
// binary whatever the header says: no text format uses it, and a model cannot read it.
func classifyBody(header string, body []byte) (string, contentKind) {
	media, _, err := mime.ParseMediaType(header)
	if err != nil {
		media = ""
	}
	kind := mediaKind(media)
	if kind == kindUnknown {
		sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(body))
		if media == "" {
			media = sniffed
		}
		if kind = mediaKind(sniffed); kind == kindUnknown {
			kind = kindBinary
		}
	}
	if kind != kindBinary && bytes.IndexByte(body, 0) >= 0 {
		kind = kindBinary
	}
	return media, kind
}

// binaryError is the refusal of a body that is not text.
func binaryError(media string) error {
	return definitions.NewError(definitions.FileError, "binary content (%s) is not returned", media).
		With("content_type", media).
		Hint("web_fetch returns text only; look for an HTML or text version of this resource")
}

// decodeText turns body into valid UTF-8. The charset comes from a byte-order mark, the
// Content-Type header or an HTML <meta> tag; failing those, a body that is valid UTF-8 is
// taken as UTF-8 (the HTML default of windows-1252 would garble it), anything else as
// windows-1252. Bytes that still do not decode become U+FFFD.
func decodeText(body []byte, header string) string {
	enc, name, certain := charset.DetermineEncoding(body, header)
	if name != "utf-8" && (certain || !utf8.Valid(trimPartialRune(body))) {
		if out, err := enc.NewDecoder().Bytes(body); err == nil {
			body = out
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b, where a body cut at
// the byte cap may have split a character.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

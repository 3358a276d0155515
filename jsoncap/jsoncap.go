// Package jsoncap shrinks a JSON value to a size budget while keeping it valid JSON of the
// same shape: long strings lose their middle, long lists their tail (with a count of what
// was cut), objects keep every key. A model given a capped tool result can still parse it
// and knows what is missing; a byte cut in the middle of the encoding would give it neither.
package jsoncap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"unicode/utf8"
)

// Smallest limits Cap goes down to before it gives up on the shape.
const (
	minString = 32
	minList   = 1
)

// Cap returns data (one JSON value) unchanged when it fits in budget bytes (which should be a
// few hundred bytes at least), else a smaller
// encoding of the same value and a note saying what was cut. Strings are cut to a limit
// (head and tail kept, "…[N chars cut]…" between) and lists to a count (the last item
// becomes "…[N more items]"), halving both until the value fits; a value that does not
// fit even then (a huge object of many keys) becomes {"truncated": true, "note", "head"}
// holding the start of its encoding as text.
func Cap(data json.RawMessage, budget int) (json.RawMessage, string) {
	if len(data) <= budget {
		return data, ""
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers pass through as written (an inode number loses nothing)
	if err := dec.Decode(&v); err != nil {
		return headOnly(data, budget, "the value is not valid JSON")
	}
	strLimit, listLimit := budget*7/8, budget/8+1
	for {
		var cut counts
		shrunk := shrink(v, strLimit, listLimit, &cut)
		out, err := json.Marshal(shrunk)
		if err == nil && len(out) <= budget {
			return out, fmt.Sprintf("the value was %d bytes; cut to %d: %s", len(data), len(out), cut)
		}
		if strLimit <= minString && listLimit <= minList {
			return headOnly(data, budget, "the value has too many keys to keep its shape")
		}
		strLimit, listLimit = max(strLimit/2, minString), max(listLimit/2, minList)
	}
}

// counts tallies what shrink cut.
type counts struct{ strings, items int }

func (c counts) String() string {
	return fmt.Sprintf("%d strings shortened in the middle, %d list items left out", c.strings, c.items)
}

// shrink returns v with strings over strLimit bytes and lists over listLimit items cut.
func shrink(v any, strLimit, listLimit int, cut *counts) any {
	switch x := v.(type) {
	case string:
		if len(x) <= strLimit {
			return x
		}
		cut.strings++
		head, tail := runeCut(x, strLimit*2/3, true), runeCut(x, strLimit/3, false)
		return head + fmt.Sprintf("…[%d chars cut]…", len(x)-len(head)-len(tail)) + tail
	case []any:
		n := len(x)
		if n > listLimit {
			cut.items += n - listLimit
			x = x[:listLimit]
		}
		out := make([]any, 0, len(x)+1)
		for _, e := range x {
			out = append(out, shrink(e, strLimit, listLimit, cut))
		}
		if n > listLimit {
			out = append(out, fmt.Sprintf("…[%d more items]", n-listLimit))
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = shrink(e, strLimit, listLimit, cut)
		}
		return out
	}
	return v
}

// runeCut returns at most n bytes of s from its start (or end), on a rune boundary.
func runeCut(s string, n int, fromStart bool) string {
	if fromStart {
		for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
			n--
		}
		return s[:n]
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// moreItems matches the item Cap puts last in a list it cut.
var moreItems = regexp.MustCompile(`^…\[\d+ more items\]$`)

// Reshape returns a value Cap cut in its own shape again, so that it decodes into its Go
// type: without the items Cap put last in the lists it cut ("…[N more items]"); strings
// keep their cut marks (they are text). ok is false when the value has no shape to give
// back: not JSON, or Cap's fallback that kept only the start of the encoding.
func Reshape(data json.RawMessage) (out json.RawMessage, ok bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return data, false
	}
	if m, isMap := v.(map[string]any); isMap && len(m) == 3 && m["truncated"] == true && m["head"] != nil && m["note"] != nil {
		return data, false
	}
	out, err := json.Marshal(dropMarkers(v))
	return out, err == nil
}

// dropMarkers drops Cap's count items from the lists of a decoded value.
func dropMarkers(v any) any {
	switch x := v.(type) {
	case []any:
		if n := len(x); n > 0 {
			if s, ok := x[n-1].(string); ok && moreItems.MatchString(s) {
				x = x[:n-1]
			}
		}
		for i, e := range x {
			x[i] = dropMarkers(e)
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = dropMarkers(e)
		}
	}
	return v
}

// headOnly is the fallback: an object with the start of the encoding as text.
func headOnly(data json.RawMessage, budget int, why string) (json.RawMessage, string) {
	note := fmt.Sprintf("the value was %d bytes and %s: only its start is kept", len(data), why)
	keep := max(budget/2-len(note), 0)
	out, _ := json.Marshal(map[string]any{"truncated": true, "note": note, "head": runeCut(string(data), keep, true)})
	return out, note
}

package web

import (
	"strconv"
	"unicode/utf8"

	"github.com/jido-run/jido/tools/definitions"
)

// Outcome says what a fetch got, for people: "200, 1234 characters", "404, ... (cut)".
func (r *FetchResult) Outcome() string {
	s := strconv.Itoa(r.Status) + ", " + definitions.Count(utf8.RuneCountInString(r.Content), "character")
	if r.Cached {
		s += ", cached"
	}
	if r.Truncated {
		s += " (cut)"
	}
	return s
}

// Outcome says how many results a search found.
func (r *SearchResult) Outcome() string { return definitions.Count(len(r.Results), "result") }

package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// hitsOf lists (end, keyword id) of every keyword occurrence the automaton reports.
func hitsOf(a *automaton, text string) [][2]int {
	var hits [][2]int
	row := int32(0)
	for i := 0; i < len(text); i++ {
		row = a.next[row+int32(a.class[text[i]])]
		if row < 0 {
			row = -row
			for _, id := range a.out[row/a.stride] {
				hits = append(hits, [2]int{i + 1, int(id)})
			}
		}
	}
	slices.SortFunc(hits, func(x, y [2]int) int { return x[0]*1000 + x[1] - y[0]*1000 - y[1] })
	return hits
}

// naiveHits finds the same occurrences by comparing at every position.
func naiveHits(keywords []string, text string) [][2]int {
	var hits [][2]int
	lt := strings.ToLower(text)
	for end := 1; end <= len(text); end++ {
		for id, kw := range keywords {
			if end >= len(kw) && lt[end-len(kw):end] == strings.ToLower(kw) {
				hits = append(hits, [2]int{end, id})
			}
		}
	}
	return hits
}

// TestAutomatonMatchesNaive compares the automaton with a naive search on random
// keywords and texts over a small alphabet, where keywords overlap and nest a lot.
func TestAutomatonMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abAB_-x"
	word := func(n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return sb.String()
	}
	for range 300 {
		var kws []string
		for range 1 + rng.IntN(8) {
			kws = append(kws, word(1+rng.IntN(5)))
		}
		a := newAutomaton(kws)
		text := word(rng.IntN(200))
		require.Equal(t, naiveHits(kws, text), hitsOf(a, text), "keywords %q text %q", kws, text)
	}
}

// TestAutomatonDefaultKeywords checks the real keyword set on text containing each
// keyword in upper and lower case.
func TestAutomatonDefaultKeywords(t *testing.T) {
	r := Default()
	var kws []string
	for _, k := range r.kws {
		kws = append(kws, k.text)
	}
	text := strings.Join(kws, " x ") + strings.ToUpper(strings.Join(kws, "."))
	require.Equal(t, naiveHits(kws, text), hitsOf(r.ac, text))
}

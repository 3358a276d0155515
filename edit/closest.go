package edit

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// Closest-candidate search. It only ever explains a not-found error: a near match is shown
// to the model, never applied.
const (
	maxCandidates    = 3   // places shown
	minSimilarity    = 0.5 // how alike (0..1, mean over old_string's lines) a place must be to be shown
	compareRunes     = 160 // how much of a line is compared
	maxDiffLines     = 30  // lines of one candidate's diff
	maxDiffLineBytes = 300 // bytes of one line of it (a minified file has long lines)
	pollStarts       = 10  // places scored among those that share lines with old_string
	pollPivot        = 3   // places scored among the lines most like old_string's longest line
	scoredLines      = 200 // lines of a long old_string that rank a place
	minPartialRunes  = 8   // a shorter line of a longer old_string is compared whole: it is found inside almost any line
)

// closest returns the places of the body that look most like old, best first.
func closest(t *text, old string) []Candidate {
	lines := t.lines()
	olds := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	want, have := looseKeys(olds), looseKeys(lines)
	starts := startsToScore(want, have)

	type place struct {
		start int
		score float64
	}
	var places []place
	last := max(0, len(lines)-len(olds))
	for _, s := range starts {
		s = min(max(s, 0), last)
		if !slices.ContainsFunc(places, func(p place) bool { return p.start == s }) {
			places = append(places, place{s, blockSimilarity(want[:min(len(want), scoredLines)], have[s:])})
		}
	}
	slices.SortFunc(places, func(a, b place) int { return cmp.Or(cmp.Compare(b.score, a.score), a.start-b.start) })

	var out []Candidate
	var taken []int
	for _, p := range places {
		if len(out) == maxCandidates || p.score < minSimilarity {
			break
		}
		if slices.ContainsFunc(taken, func(s int) bool { return p.start < s+len(olds) && s < p.start+len(olds) }) {
			continue
		}
		end := min(p.start+len(olds), len(lines))
		if d := candidateDiff(olds, lines[p.start:end], p.start); d != "" {
			taken = append(taken, p.start)
			out = append(out, Candidate{Line: p.start + 1, Diff: d})
		}
	}
	return out
}

// startsToScore returns the lines (0-based, maybe out of range) where old_string might
// start: where most of its lines are lines of the file, and where its longest line looks most
// like a line of the file.
func startsToScore(want, have []string) []int {
	pivot := 0
	for j, k := range want {
		if len(k) > len(want[pivot]) {
			pivot = j
		}
	}
	if len(have) == 0 || want[pivot] == "" {
		return nil
	}
	at := map[string][]int{}
	for k, key := range have {
		at[key] = append(at[key], k)
	}
	votes := map[int]int{}
	for j, key := range want {
		if key != "" {
			for _, k := range at[key] {
				votes[k-j]++
			}
		}
	}
	starts := make([]int, 0, len(votes)+pollPivot)
	for s := range votes {
		starts = append(starts, s)
	}
	slices.SortFunc(starts, func(a, b int) int { return cmp.Or(votes[b]-votes[a], a-b) })
	starts = starts[:min(len(starts), pollStarts)]
	for _, k := range mostAlike(want[pivot], have, pollPivot) {
		starts = append(starts, k-pivot)
	}
	return starts
}

// looseKeys normalizes lines for comparison: whitespace runs, typography and Unicode
// normalization do not count.
func looseKeys(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = foldTypography(nfcLine(l)).text
	}
	return out
}

// mostAlike returns the indexes of the n lines whose bytes overlap most with key's: a cheap
// first look, so that the costly comparison runs on a few lines.
func mostAlike(key string, lines []string, n int) []int {
	var want [256]int
	for i := 0; i < len(key); i++ {
		want[key[i]]++
	}
	type hit struct {
		line  int
		score float64
	}
	var best []hit
	for k, l := range lines {
		left, shared := want, 0
		for i := 0; i < len(l); i++ {
			if left[l[i]] > 0 {
				left[l[i]]--
				shared++
			}
		}
		if shared == 0 {
			continue
		}
		h := hit{k, float64(2*shared) / float64(len(key)+len(l))}
		i, _ := slices.BinarySearchFunc(best, h, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
		if i < n {
			best = slices.Insert(best, i, h)[:min(len(best)+1, n)]
		}
	}
	out := make([]int, len(best))
	for i, h := range best {
		out[i] = h.line
	}
	return out
}

// blockSimilarity is the mean similarity of old_string's lines (want) with the lines from a
// place of the file on (have). A one-line old_string, and the first and last lines of a
// longer one unless short, may be parts of lines.
func blockSimilarity(want, have []string) float64 {
	sum := 0.0
	for j, w := range want {
		if j == len(have) {
			break
		}
		edge := j == 0 || j == len(want)-1
		sum += lineSimilarity(w, have[j], len(want) == 1 || (edge && utf8.RuneCountInString(w) >= minPartialRunes))
	}
	return sum / float64(len(want))
}

// lineSimilarity is 1 minus the edit distance of two lines over the longer's length, or,
// when partial, of old_string's line and the best-matching part of the file's line over
// the former's length.
func lineSimilarity(want, have string, partial bool) float64 {
	if want == have {
		return 1
	}
	a, b := headRunes(want), headRunes(have)
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if partial && len(b) > len(a) {
		return 1 - float64(editDistance(a, b, true))/float64(len(a))
	}
	return 1 - float64(editDistance(a, b, false))/float64(max(len(a), len(b)))
}

// headRunes returns the first compareRunes runes of s.
func headRunes(s string) []rune {
	out := make([]rune, 0, min(len(s), compareRunes))
	for _, r := range s {
		if len(out) == compareRunes {
			break
		}
		out = append(out, r)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, or, inB, of a and the part of b
// closest to it.
func editDistance(a, b []rune, inB bool) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		if !inB {
			prev[j] = j
		}
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	if inB {
		return slices.Min(prev)
	}
	return prev[len(b)]
}

// candidateDiff is a unified diff from old_string's lines to the file's lines from start
// (0-based) on, numbered as in the file and cut to maxDiffLines.
func candidateDiff(olds, lines []string, start int) string {
	a, b := strings.Join(olds, "\n")+"\n", strings.Join(lines, "\n")+"\n"
	u, err := udiff.ToUnifiedDiff("old_string", "file", a, udiff.Lines(a, b), 1)
	if err != nil {
		return ""
	}
	for _, h := range u.Hunks {
		h.ToLine += start
	}
	out := strings.Split(strings.TrimSuffix(u.String(), "\n"), "\n")
	if len(out) <= 2 {
		return ""
	}
	out = out[2:] // the ---/+++ header says nothing here
	if len(out) > maxDiffLines {
		out = append(out[:maxDiffLines], "...")
	}
	for i, l := range out {
		if len(l) > maxDiffLineBytes {
			cut := maxDiffLineBytes
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			out[i] = l[:cut] + " …"
		}
	}
	return strings.Join(out, "\n")
}

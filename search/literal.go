package search

import (
	"regexp/syntax"
	"unicode/utf8"
)

// maxFinders bounds the literals of an alternation (TODO|FIXME) scanned for side by side.
const maxFinders = 8

// lineOnly rewrites a parsed query so it can never match '\n', as rg does without multiline:
// '\n' leaves every character class and `.` under (?s), and \A, \z become ^, $ (the same thing
// on one line). It reports whether anything changed, and fails when the query itself asks for
// a line break (a literal '\n', or a class of nothing else).
func lineOnly(re *syntax.Regexp) (changed bool, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return false, false
			}
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 2 && re.Rune[0] == '\n' && re.Rune[1] == '\n' {
			return false, false
		}
		if classHas(re.Rune, '\n') {
			re.Rune = classWithout(re.Rune, '\n')
			changed = true
		}
	case syntax.OpAnyChar:
		re.Op, changed = syntax.OpAnyCharNotNL, true
	case syntax.OpBeginText:
		re.Op, changed = syntax.OpBeginLine, true
	case syntax.OpEndText:
		re.Op, re.Flags, changed = syntax.OpEndLine, re.Flags&^syntax.WasDollar, true
	}
	for _, sub := range re.Sub {
		c, ok := lineOnly(sub)
		if !ok {
			return false, false
		}
		changed = changed || c
	}
	return changed, true
}

func classHas(ranges []rune, r rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= r && r <= ranges[i+1] {
			return true
		}
	}
	return false
}

func classWithout(ranges []rune, r rune) []rune {
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if r < lo || hi < r {
			out = append(out, lo, hi)
			continue
		}
		if lo < r {
			out = append(out, lo, r-1)
		}
		if r < hi {
			out = append(out, r+1, hi)
		}
	}
	return out
}

// required returns finders for literals one of which every match of re contains (nil when
// none is known): a literal node itself, the best-scoring part of a concatenation, the union
// over an alternation's branches. re should be simplified, so counted repeats are spelled out.
func required(re *syntax.Regexp) []finder {
	switch re.Op {
	case syntax.OpLiteral:
		var f finder
		var ok bool
		if re.Flags&syntax.FoldCase != 0 && hasFold(re.Rune) {
			f, ok = newFoldFinder(re.Rune)
		} else {
			f, ok = newExactFinder(re.Rune)
		}
		if ok {
			return []finder{f}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []finder
		for i, sub := range re.Sub {
			set := required(sub)
			if set == nil || best != nil && setScore(set) <= setScore(best) {
				continue
			}
			best = set
			if sub.Op == syntax.OpLiteral && set[0].full {
				// The bytes next to the literal narrow its hits further: a date's '-' sits
				// between digits.
				best[0].before = neighbourSets(re.Sub[:i], true)
				best[0].after = neighbourSets(re.Sub[i+1:], false)
			}
		}
		return best
	case syntax.OpAlternate:
		var all []finder
		for _, sub := range re.Sub {
			set := required(sub)
			if set == nil || len(all)+len(set) > maxFinders {
				return nil
			}
			all = append(all, set...)
		}
		return all
	}
	return nil
}

// neighbourSets returns the byte sets that the text next to a literal must fit, in text order: subs
// are the parts of a concatenation before it (backward) or after it. It takes every fixed-width
// part (see fixedSets) from the literal outward, then the edge byte of the first other part.
func neighbourSets(subs []*syntax.Regexp, backward bool) []byteSet {
	var sets []byteSet
	for k := range subs {
		sub := subs[k]
		if backward {
			sub = subs[len(subs)-1-k]
		}
		seq, ok := fixedSets(sub)
		if !ok {
			if edge := edgeBytes(sub, backward); edge != nil {
				seq = []byteSet{*edge}
			}
		}
		if backward {
			sets = append(seq, sets...)
		} else {
			sets = append(sets, seq...)
		}
		if !ok {
			break
		}
	}
	return sets
}

// fixedSets returns the byte sets of the text re matches when that is always one ASCII byte
// per set (literals, ASCII classes, their concatenations), and whether it is. Go's regexp
// reads an ASCII byte as itself even after invalid UTF-8, so a byte compare finds the same.
func fixedSets(re *syntax.Regexp) ([]byteSet, bool) {
	var sets []byteSet
	switch re.Op {
	case syntax.OpEmptyMatch:
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			set := runeBytes(r, re.Flags&syntax.FoldCase != 0)
			if set == nil {
				return nil, false
			}
			sets = append(sets, *set)
		}
	case syntax.OpCharClass:
		set := classBytes(re.Rune)
		if set == nil {
			return nil, false
		}
		sets = append(sets, *set)
	case syntax.OpCapture, syntax.OpConcat:
		for _, sub := range re.Sub {
			seq, ok := fixedSets(sub)
			if !ok {
				return nil, false
			}
			sets = append(sets, seq...)
		}
	default:
		return nil, false
	}
	return sets, true
}

// edgeBytes returns the bytes that the last (or first) byte matched by re must be one of, or
// nil when that is not known to be a single ASCII byte (an empty match, a wider rune).
func edgeBytes(re *syntax.Regexp, last bool) *byteSet {
	for {
		switch re.Op {
		case syntax.OpConcat:
			if last {
				re = re.Sub[len(re.Sub)-1]
			} else {
				re = re.Sub[0]
			}
			continue
		case syntax.OpCapture, syntax.OpPlus:
			re = re.Sub[0]
			continue
		case syntax.OpRepeat:
			if re.Min >= 1 {
				re = re.Sub[0]
				continue
			}
		case syntax.OpCharClass:
			return classBytes(re.Rune)
		case syntax.OpLiteral:
			r := re.Rune[0]
			if last {
				r = re.Rune[len(re.Rune)-1]
			}
			return runeBytes(r, re.Flags&syntax.FoldCase != 0)
		}
		return nil
	}
}

// classBytes returns the bytes of a class of ASCII runes, or nil when it has a wider rune.
func classBytes(ranges []rune) *byteSet {
	set := new(byteSet)
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1] >= utf8.RuneSelf {
			return nil
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			set.add(byte(r))
		}
	}
	return set
}

// runeBytes returns the bytes that match the literal rune r (folded: both ASCII cases), or nil
// when r is not ASCII or folds to a wider rune (k and s, see newFoldFinder).
func runeBytes(r rune, fold bool) *byteSet {
	if r >= utf8.RuneSelf || fold && !isPlainASCII([]rune{r}) {
		return nil
	}
	set := new(byteSet)
	set.add(byte(r))
	if fold {
		set.add(lowerASCII(byte(r)))
		set.add(upperASCII(byte(r)))
	}
	return set
}

// setScore rates a set of finders by its weakest member (a lone byte is weakest, then a
// literal made of common bytes); each extra member costs a scan of the buffer.
func setScore(set []finder) int {
	score := 0
	for i, f := range set {
		s := rarity([]byte{f.b1}, true) / 2
		if f.kind != findFoldLine {
			s = rarity(f.needle, f.kind == findFold)
		}
		if i == 0 || s < score {
			score = s
		}
	}
	return score - 16*(len(set)-1)
}

// exactHits reports whether f's hits, widened by their context, are exactly the matches of
// re: re is one literal (perhaps captured), or a run of fixed-width bytes all of which f checks.
func exactHits(re *syntax.Regexp, f *finder) bool {
	if !f.full {
		return false
	}
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op == syntax.OpLiteral {
		return true
	}
	sets, ok := fixedSets(re)
	return ok && len(f.before)+len(f.needle)+len(f.after) == len(sets)
}

package search

import (
	"unicode"
	"unicode/utf8"
)

// Case-insensitive literals are found without a lowered copy of the buffer. Under Unicode
// simple folding an ASCII letter matches only its other ASCII case, except k (also U+212A
// KELVIN SIGN) and s (also U+017F LONG S), which is why those two are handled apart.

// newExactFinder is a finder for a case-sensitive literal. A literal holding U+FFFD is not
// usable: Go's regexp matches it against invalid bytes, which a byte compare would miss.
func newExactFinder(lit []rune) (finder, bool) {
	for _, r := range lit {
		if r == utf8.RuneError {
			return finder{}, false
		}
	}
	if len(lit) == 0 {
		return finder{}, false
	}
	return newNeedleFinder(findExact, []byte(string(lit)), true), true
}

// newFoldFinder is a finder for a literal under Unicode simple case folding. An ASCII literal
// without k or s (which also fold to U+212A KELVIN SIGN and U+017F LONG S) is found exactly by
// an aligned ASCII compare. Any other literal is narrowed to lines holding its longest such
// stretch, or else a byte every match must contain; it fails when there is none (e.g. "ks").
func newFoldFinder(lit []rune) (finder, bool) {
	if len(lit) == 0 {
		return finder{}, false
	}
	if isPlainASCII(lit) {
		return plainFoldFinder(lit, true), true
	}
	i, j := 0, 0 // the longest plain stretch lit[i:j]
	for a := 0; a < len(lit); {
		b := a
		for b < len(lit) && isPlainASCII(lit[b:b+1]) {
			b++
		}
		if b-a > j-i {
			i, j = a, b
		}
		a = b + 1
	}
	if j-i >= 2 {
		return plainFoldFinder(lit[i:j], false), true
	}
	f, found := finder{kind: findFoldLine}, false
	for _, r := range lit {
		for _, b := range fixedBytes(r) {
			if b1, b2 := lowerASCII(b), upperASCII(b); !found || max(byteRank[b1], byteRank[b2]) < max(byteRank[f.b1], byteRank[f.b2]) {
				f.b1, f.b2, found = b1, b2, true
			}
		}
	}
	return f, found
}

// plainFoldFinder finds an ASCII literal without k/s by an aligned ASCII case-insensitive
// compare. full says the literal is the whole required one.
func plainFoldFinder(lit []rune, full bool) finder {
	needle := make([]byte, len(lit))
	for i, r := range lit {
		needle[i] = lowerASCII(byte(r))
	}
	return newNeedleFinder(findFold, needle, full)
}

// isPlainASCII reports whether every rune of lit is ASCII and folds only to ASCII.
func isPlainASCII(lit []rune) bool {
	for _, r := range lit {
		if r >= utf8.RuneSelf || r == 'k' || r == 'K' || r == 's' || r == 'S' {
			return false
		}
	}
	return true
}

// fixedBytes returns bytes that any text matching r under simple folding must contain:
// an ASCII letter other than k/s (in either case, see newFoldFinder), any other ASCII byte, or
// the bytes of a rune that folds to nothing else. Runes with wider fold orbits give none.
func fixedBytes(r rune) []byte {
	switch {
	case r == utf8.RuneError || r == 'k' || r == 'K' || r == 's' || r == 'S':
		return nil
	case r < utf8.RuneSelf:
		return []byte{byte(r)}
	case unicode.SimpleFold(r) == r:
		return []byte(string(r))
	}
	return nil
}

// hasFold reports whether some rune of lit has other case forms.
func hasFold(lit []rune) bool {
	for _, r := range lit {
		if unicode.SimpleFold(r) != r {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

package search

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
)

// A finder locates the candidates for one required literal. findExact and findFold hits are
// occurrences of the needle, found by its rarest byte (bytes.IndexByte, in both ASCII cases for
// findFold) and an aligned compare; when that byte proves common in the buffer, by a SWAR scan
// testing its two rarest bytes at 8 positions per machine word. findFoldLine hits are only a byte every
// match contains: the line around it must be checked with the regexp. The bytes around a
// needle's hit must also fit the query's fixed-width parts next to the literal (before, after).
type finder struct {
	kind   finderKind
	needle []byte // findExact: the literal; findFold: the literal in ASCII lower case
	full   bool   // the needle is a whole literal of the query, not a stretch of one
	// The bytes just before and after a hit must be in these sets, in text order: data[st-1]
	// in before[len(before)-1], data[end] in after[0] (empty: no constraint).
	before, after []byteSet
	off           int  // where the rarest byte sits in the needle
	b1, b2        byte // the rarest byte in lower and upper case (equal unless a folded letter)
	// The SWAR test: for positions p = off and off2, needle[p] is matched by a data byte c
	// when c|mask == value (the mask 0x20 folds an ASCII letter's case).
	off2          int
	mask1, value1 uint64
	mask2, value2 uint64
}

type finderKind uint8

const (
	findExact    finderKind = iota // a hit is an occurrence of needle
	findFold                       // a hit is an occurrence of needle under ASCII case folding
	findFoldLine                   // a hit is an occurrence of b1 or b2: only its line may match
)

// cursor is one finder's scan state within one search. Positions found ahead of the scan are
// kept (a position < from is stale), so no stretch of the buffer is read twice.
type cursor struct {
	hit, n1, n2 int  // the next hit, the next b1, the next b2
	origin      int  // where the search began
	fails       int  // rare-byte candidates that were not hits
	dense       bool // fails are too many: use the SWAR scan
}

const none = math.MaxInt // cursor position: no further occurrence

func newCursor() cursor { return cursor{hit: -1, n1: -1, n2: -1, origin: -1} }

// newNeedleFinder makes a findExact or findFold finder for needle (lower case for findFold).
func newNeedleFinder(kind finderKind, needle []byte, full bool) finder {
	rank := func(c byte) uint8 {
		if kind == findFold {
			return pairRank(c)
		}
		return byteRank[c]
	}
	f := finder{kind: kind, needle: needle, full: full, off2: -1}
	for i, c := range needle {
		if rank(c) < rank(needle[f.off]) {
			f.off = i
		}
	}
	for i, c := range needle {
		if i != f.off && (f.off2 < 0 || rank(c) < rank(needle[f.off2])) {
			f.off2 = i
		}
	}
	if f.off2 < 0 {
		f.off2 = f.off
	}
	f.b1, f.b2 = needle[f.off], needle[f.off]
	if kind == findFold {
		f.b2 = upperASCII(f.b1)
	}
	f.mask1, f.value1 = swarTest(kind, needle[f.off])
	f.mask2, f.value2 = swarTest(kind, needle[f.off2])
	return f
}

func swarTest(kind finderKind, c byte) (mask, value uint64) {
	const ones = 0x0101010101010101
	if kind == findFold && 'a' <= c && c <= 'z' {
		return 0x20 * ones, uint64(c) * ones
	}
	return 0, uint64(c) * ones
}

// next returns the first candidate at or after from, or -1. For findExact and findFold the
// candidate is the start of an occurrence; for findFoldLine it is a byte of the match's line.
func (f *finder) next(data []byte, from int, c *cursor) int {
	if c.hit >= from {
		return hitOrNone(c.hit)
	}
	if c.origin < 0 {
		c.origin = from
	}
	if f.kind == findFoldLine {
		c.hit = f.pair(data, from, c)
		return hitOrNone(c.hit)
	}
	c.hit = none
	for at := from; !c.dense; {
		p := f.pair(data, at+f.off, c)
		if p == none {
			return -1
		}
		st := p - f.off
		if st+len(f.needle) > len(data) {
			return -1
		}
		if f.hitAt(data, st) {
			c.hit = st
			return st
		}
		at = st + 1
		// Like bytes.Index: once false candidates come more than one per 128 bytes, the
		// byte was a poor guess for this buffer.
		if c.fails++; c.fails > 16+(at-c.origin)>>7 {
			c.dense = true
			from = at
		}
	}
	if st := f.swar(data, from); st >= 0 {
		c.hit = st
	}
	return hitOrNone(c.hit)
}

func hitOrNone(i int) int {
	if i == none {
		return -1
	}
	return i
}

// byteSet is a set of bytes, as a bitmap.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// hitAt reports whether the needle occurs at st, between bytes that may surround it.
func (f *finder) hitAt(data []byte, st int) bool {
	s, e := f.span(st)
	return s >= 0 && e <= len(data) && f.equal(data[st:st+len(f.needle)]) &&
		fits(f.before, data[s:st]) && fits(f.after, data[e-len(f.after):e])
}

// span returns the bytes [s, e) that hitAt checks for a hit at st: the needle and its context.
func (f *finder) span(st int) (s, e int) {
	return st - len(f.before), st + len(f.needle) + len(f.after)
}

// fits reports whether every byte b[i] is in sets[i] (len(b) == len(sets)).
func fits(sets []byteSet, b []byte) bool {
	for i, c := range b {
		if !sets[i].has(c) {
			return false
		}
	}
	return true
}

func (f *finder) equal(b []byte) bool {
	if f.kind == findFold {
		return equalFoldASCII(b, f.needle)
	}
	return bytes.Equal(b, f.needle)
}

// pair returns the first position at or after at holding b1 or b2 (none if there is none),
// scanning for each byte separately with IndexByte and keeping the farther one for later.
func (f *finder) pair(data []byte, at int, c *cursor) int {
	n := nextByte(data, at, f.b1, &c.n1)
	if f.b2 != f.b1 {
		n = min(n, nextByte(data, at, f.b2, &c.n2))
	}
	return n
}

func nextByte(data []byte, at int, b byte, cached *int) int {
	if *cached >= at {
		return *cached
	}
	*cached = none
	if at < len(data) {
		if i := bytes.IndexByte(data[at:], b); i >= 0 {
			*cached = at + i
		}
	}
	return *cached
}

// swar returns the first occurrence of the needle at or after from, or -1: it tests the
// needle's two rarest bytes at 16 candidate positions per step, then compares the survivors.
func (f *finder) swar(data []byte, from int) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	n := len(f.needle)
	if from+n > len(data) {
		return -1
	}
	last := len(data) - max(f.off, f.off2) - 8 // the last start whose test words fit
	d1, d2 := data[f.off:], data[f.off2:]
	m1, v1, m2, v2 := f.mask1, f.value1, f.mask2, f.value2
	// hits flags, in the top bit of each byte, the starts among 8 whose two bytes pass.
	// (x-ones)&^x flags every zero byte of x, and only false ones above a real one.
	hits := func(st int) uint64 {
		a := (binary.LittleEndian.Uint64(d1[st:st+8]) | m1) ^ v1
		b := (binary.LittleEndian.Uint64(d2[st:st+8]) | m2) ^ v2
		return (a - ones) &^ a & (b - ones) &^ b & high
	}
	st := from
	for ; st <= last; st += 8 {
		z := hits(st)
		if st+8 <= last {
			if z|hits(st+8) == 0 {
				st += 8
				continue
			}
		}
		for ; z != 0; z &= z - 1 {
			if c := st + bits.TrailingZeros64(z)>>3; f.hitAt(data, c) {
				return c
			}
		}
	}
	for ; st+n <= len(data); st++ {
		if f.hitAt(data, st) {
			return st
		}
	}
	return -1
}

// equalFoldASCII reports whether s equals the lower-case ASCII lower when ASCII letters are folded.
func equalFoldASCII(s, lower []byte) bool {
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// rarity estimates how few places a needle occurs in: the sum of its bytes' rarities, roughly
// a log-probability. With fold, a letter counts in both cases.
func rarity(needle []byte, fold bool) int {
	n := 0
	for _, c := range needle {
		r := byteRank[c]
		if fold {
			r = pairRank(c)
		}
		n += 256 - int(r)
	}
	return n
}

// pairRank is how common c is when both its ASCII cases count.
func pairRank(c byte) uint8 { return max(byteRank[lowerASCII(c)], byteRank[upperASCII(c)]) }

// byteRank orders bytes by how often they occur in source code and text, 0 the rarest and 255
// the most common (like ripgrep's memchr table; computed once from Go's own source tree).
// The rarest byte of a needle gives the fewest false candidates.
var byteRank = [256]uint8{
	0, 38, 39, 40, 41, 42, 49, 47, 1, 252, 248, 2, 3, 4, 5, 6, // 0x00
	43, 7, 8, 9, 44, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, // 0x10
	255, 182, 226, 161, 166, 173, 179, 174, 233, 232, 186, 181, 243, 187, 236, 231, // 0x20
	250, 234, 227, 213, 219, 200, 210, 191, 208, 195, 229, 183, 177, 224, 172, 158, // 0x30
	157, 218, 192, 205, 203, 217, 197, 185, 184, 207, 164, 171, 199, 202, 194, 206, // 0x40
	204, 170, 211, 223, 220, 188, 193, 180, 198, 176, 165, 190, 209, 189, 160, 221, // 0x50
	167, 247, 222, 240, 238, 254, 239, 228, 225, 246, 168, 201, 241, 230, 249, 244, // 0x60
	235, 169, 251, 245, 253, 237, 212, 196, 242, 214, 175, 216, 178, 215, 156, 21, // 0x70
	155, 144, 154, 148, 127, 146, 139, 98, 149, 131, 138, 91, 111, 77, 99, 73, // 0x80
	109, 92, 96, 114, 136, 140, 85, 128, 124, 135, 68, 71, 134, 141, 105, 78, // 0x90
	87, 97, 89, 95, 132, 126, 104, 113, 94, 137, 110, 119, 123, 117, 100, 82, // 0xa0
	86, 129, 125, 120, 93, 101, 88, 162, 90, 145, 112, 107, 142, 116, 133, 84, // 0xb0
	22, 23, 163, 122, 63, 60, 52, 69, 59, 83, 79, 62, 121, 81, 152, 106, // 0xc0
	74, 67, 51, 54, 56, 75, 76, 80, 150, 153, 65, 66, 57, 45, 50, 53, // 0xd0
	103, 147, 159, 151, 102, 130, 143, 115, 108, 72, 70, 58, 61, 55, 46, 64, // 0xe0
	118, 24, 25, 26, 48, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, // 0xf0
}

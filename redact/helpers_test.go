package redact

import "strings"

// Test credentials are built from parts, so this source holds no literal that a secret
// scanner would flag.

// mix returns n bytes cycling through a base62 alphabet in a scrambled order.
func mix(n int) string {
	const alphabet = "Q7wE9rT2yU4iO6pA8sD1fG3hJ5kL0zXcV5bN7mq2W4e6R8t1Y3u5I7o9P0aSdFgHjK"
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.WriteByte(alphabet[(i*7+i/len(alphabet))%len(alphabet)])
	}
	return sb.String()
}

// upper returns n upper-case letters and digits.
func upper(n int) string { return strings.ToUpper(mix(n)) }

// hexs returns n lower-case hex digits.
func hexs(n int) string {
	const digits = "3f9a0c7e15b2d864"
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.WriteByte(digits[(i*5+i/16)%16])
	}
	return sb.String()
}

// plantable returns credentials of several rules, each a whole token.
func plantable() []string {
	return []string{
		"AK" + "IA" + upper(16),
		"gh" + "p_" + mix(36),
		"github" + "_pat_" + mix(82),
		"gl" + "pat-" + mix(20),
		"np" + "m_" + mix(36),
		"xo" + "xb-123456789012-1234567890123-" + mix(24),
		"sk" + "_live_" + mix(24),
		"S" + "G." + mix(22) + "." + mix(43),
		"sk" + "-ant-api03-" + mix(93) + "AA",
		"sk" + "-proj-" + mix(120),
		"AI" + "za" + mix(35),
		"hf" + "_" + mix(34),
		"gs" + "k_" + mix(52),
		"r8" + "_" + mix(37),
		"xa" + "i-" + mix(80),
	}
}

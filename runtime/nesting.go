package runtime

import "github.com/jido-run/jido/luanest"

// checkNesting refuses a source whose brackets or blocks nest deeper than maxSyntaxLevels, as
// Lua 5.1 does ("chunk has too many syntax levels"). gopher-lua's compiler recurses once per
// level, and deep enough nesting overflows the Go stack, which kills the process instead of
// panicking (research 1.9 #8).
func checkNesting(src string) *Error {
	if luanest.TooDeep(src, maxSyntaxLevels) >= 0 {
		return newError(KindSyntax, "the source nests brackets or blocks deeper than %d levels", maxSyntaxLevels)
	}
	return nil
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

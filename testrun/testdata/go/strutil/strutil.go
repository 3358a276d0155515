// Package strutil is a test fixture for jido's run_tests.
package strutil

import "strings"

// Shout upper-cases s.
func Shout(s string) string { return strings.ToUpper(s) }

// Package calc is a test fixture for jido's run_tests.
package calc

// Add returns a+b.
func Add(a, b int) int { return a + b }

// Sub is deliberately wrong so that a test fails.
func Sub(a, b int) int { return a + b }

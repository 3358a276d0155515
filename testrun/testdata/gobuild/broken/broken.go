// Package broken does not compile: it is the build-failure fixture.
package broken

// Answer has a type error.
func Answer() int { return "forty-two" }

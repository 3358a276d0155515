//go:build race

package integration

// raceEnabled: the test binary runs with the race detector, whose shadow memory multiplies
// the process's RSS.
const raceEnabled = true

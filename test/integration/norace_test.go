//go:build !race

package integration

// raceEnabled: the test binary runs without the race detector.
const raceEnabled = false

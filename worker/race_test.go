//go:build race

package worker

// raceEnabled: the race detector's runtime needs fixed address ranges, which RLIMIT_AS denies.
const raceEnabled = true

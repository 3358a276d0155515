//go:build !linux

package loadgen

import "time"

// sleep waits about d (see sleep_linux.go for why that differs on Linux).
func sleep(d time.Duration) { time.Sleep(d) }

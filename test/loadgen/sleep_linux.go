package loadgen

import (
	"syscall"
	"time"
)

// sleep waits about d on the goroutine's thread, in a nanosleep system call. The runtime's
// timers wake a goroutine up to a millisecond late when the process is idle (its poller
// waits in whole milliseconds), which would make the load generator late by itself at low
// rates; the kernel wakes a thread within its timer slack (50 µs by default). It may return
// early (on a signal).
func sleep(d time.Duration) {
	ts := syscall.NsecToTimespec(d.Nanoseconds())
	syscall.Nanosleep(&ts, nil)
}

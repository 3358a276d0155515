package forge

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// errBusy is returned when another process runs the same run.
var errBusy = errors.New("forge: another jido forge process is running this run; wait for it, or stop it first")

// lock takes the run's lock, artifacts/<runId>/.lock, for this process (released when it
// exits, crash included): two Executors on one run would dispatch the same tasks twice.
func (f *Forge) lock() error {
	if f.lockFile != nil {
		return nil
	}
	dir := filepath.Join(f.root.Path(), "artifacts", f.run.ID())
	file, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	if err := unix.Flock(int(file.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		file.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return errBusy
		}
		return err
	}
	f.lockFile = file
	return nil
}

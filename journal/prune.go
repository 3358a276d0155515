package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Prune removes the entries beyond the limits, oldest first, and the blobs no remaining
// entry references; call it when a session starts or after a commit.
//
// Entries are kept newest first while they fit: at most MaxEntries, none older than MaxAge,
// and their entry files plus the blobs they reference (each counted once) within MaxBytes;
// the first entry that does not fit is removed with every older one. The newest entry is
// kept even if it alone exceeds MaxBytes, so that the last change can always be undone.
// Unreferenced blobs younger than an hour are kept: they may belong to a Capture whose
// Commit is still to come; so are those of pending change sets (Begin). Temporary files
// and unreadable entry files, left by a crash, are removed.
func (j *Journal) Prune() error {
	return j.locked(j.prune)
}

// prune is Prune with the lock held: no other journal write is in progress, so every
// temporary file is stale.
func (j *Journal) prune() error {
	var errs []error
	remove := func(p string) {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for _, dir := range []string{j.entriesDir(), j.blobsDir()} {
		des, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("journal: prune: %w", err)
		}
		for _, de := range des {
			if strings.HasPrefix(de.Name(), tempPrefix) {
				remove(filepath.Join(dir, de.Name()))
			}
		}
	}

	entries, bad, err := j.loadEntries()
	if err != nil {
		return fmt.Errorf("journal: prune: %w", err)
	}
	for _, name := range bad {
		remove(filepath.Join(j.entriesDir(), name))
	}
	cutoff := j.now().Add(-j.limits.MaxAge)
	referenced := make(map[string]bool)
	var total int64
	for i, e := range entries {
		size := fileSize(j.entryPath(e.ID))
		var fresh []string
		for _, b := range e.Before {
			if b.Exists && validBlob(b.Blob) && !referenced[b.Blob] && !slices.Contains(fresh, b.Blob) {
				fresh = append(fresh, b.Blob)
				size += fileSize(j.blobPath(b.Blob))
			}
		}
		if i >= j.limits.MaxEntries || e.Time.Before(cutoff) || (i > 0 && total+size > j.limits.MaxBytes) {
			for _, old := range entries[i:] {
				remove(j.entryPath(old.ID))
			}
			break
		}
		total += size
		for _, b := range fresh {
			referenced[b] = true
		}
	}

	for _, b := range j.pendingBlobs() {
		referenced[b] = true
	}
	des, err := os.ReadDir(j.blobsDir())
	if err != nil {
		return fmt.Errorf("journal: prune: %w", err)
	}
	young := j.now().Add(-j.grace)
	for _, de := range des {
		if !validBlob(de.Name()) || referenced[de.Name()] {
			continue
		}
		if info, err := de.Info(); err == nil && info.ModTime().Before(young) {
			remove(filepath.Join(j.blobsDir(), de.Name()))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("journal: prune: %w", err)
	}
	return nil
}

// fileSize returns the size of the file at p, 0 if it cannot be read.
func fileSize(p string) int64 {
	info, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return info.Size()
}

package security

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"
	"unicode/utf8"
)

// Temporary files of WriteFile are named "." + base + tempSuffix + 16 lowercase hex digits.
const (
	tempSuffix    = ".tmp-"
	tempHexDigits = 16
)

// tempName returns a fresh temporary name for a file named base; base is shortened so
// that the name stays within maxComponentBytes.
func tempName(base string) string {
	var b [tempHexDigits / 2]byte
	rand.Read(b[:])
	return tempPrefix(base) + hex.EncodeToString(b[:])
}

// tempPrefix is what every temporary name of a file named base starts with.
func tempPrefix(base string) string {
	keep := maxComponentBytes - 1 - len(tempSuffix) - tempHexDigits
	for len(base) > keep {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	return "." + base + tempSuffix
}

// RemoveTempsOf removes the temporary files WriteFile made for the file name denotes,
// whatever their age: after a crash, the recovery of the writes that died knows them to
// be garbage. (A write of the same file in progress elsewhere would fail, not corrupt.)
func (r *Root) RemoveTempsOf(name string) error {
	const op = "remove"
	t, err := r.resolveEntry(op, name, createParents)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // its directory is gone, and the temporary files with it
	}
	if err != nil {
		return err
	}
	dir, base := path.Split(t.name)
	if dir = strings.TrimSuffix(dir, "/"); dir == "" {
		dir = "."
	}
	entries, err := r.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	prefix := tempPrefix(base)
	var errs []error
	for _, e := range entries {
		if e.Type().IsRegular() && IsTempName(e.Name()) && strings.HasPrefix(e.Name(), prefix) {
			if err := r.root.Remove(path.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, pathError(op, path.Join(dir, e.Name()), err))
			}
		}
	}
	return errors.Join(errs...)
}

// IsTempName reports whether base is the name of a temporary file of WriteFile, so that
// listings can hide them and SweepTemps can remove stale ones.
func IsTempName(base string) bool {
	rest, ok := strings.CutPrefix(base, ".")
	i := len(rest) - tempHexDigits - len(tempSuffix)
	if !ok || i < 1 || rest[i:i+len(tempSuffix)] != tempSuffix {
		return false
	}
	for _, c := range rest[i+len(tempSuffix):] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// SweepTemps removes the temporary files of WriteFile (IsTempName) last modified more than
// olderThan ago, left behind by a crash; run it when a session starts. It never follows
// symlinks nor enters .git, skips directories it cannot list, and returns how many files
// it removed with the first error met.
func (r *Root) SweepTemps(olderThan time.Duration) (int, error) {
	const op = "sweep"
	cutoff := time.Now().Add(-olderThan)
	removed := 0
	var first error
	note := func(err error) {
		if first == nil {
			first = err
		}
	}
	err := fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			note(err)
			return nil
		case d.IsDir() && d.Name() == ".git":
			return fs.SkipDir
		case !d.Type().IsRegular() || !IsTempName(d.Name()):
			return nil
		}
		info, err := d.Info()
		if err == nil && info.ModTime().Before(cutoff) {
			err = r.root.Remove(p)
			if err == nil {
				removed++
			}
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			note(pathError(op, p, err))
		}
		return nil
	})
	if err != nil {
		note(err)
	}
	return removed, first
}

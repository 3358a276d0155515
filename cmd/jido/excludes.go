package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/jido-run/jido/ignore"
)

// maxExcludesBytes caps what is read of a git configuration or excludes file.
const maxExcludesBytes = 1 << 20

// userExcludes returns the content of the user's global git excludes file: the
// core.excludesFile of ~/.gitconfig or $XDG_CONFIG_HOME/git/config, else
// $XDG_CONFIG_HOME/git/ignore (~/.config/git/ignore); nil when there is none. These are
// the user's own settings, read once by the host. A repository's .git/config is not
// consulted: it is project content, and honouring its core.excludesFile would let the
// project point jido at any file of the machine (whose lines would then shape listings).
func userExcludes() []byte {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var xdgConfig, userConfig []byte
	if xdg != "" {
		xdgConfig = readCapped(filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		userConfig = readCapped(filepath.Join(home, ".gitconfig"))
	}
	p := ignore.ExcludesFilePath(home, os.Getenv("XDG_CONFIG_HOME"), xdgConfig, userConfig, nil)
	if p == "" {
		return nil
	}
	return readCapped(p)
}

// readCapped reads up to maxExcludesBytes of a host file; nil when it cannot be read.
func readCapped(name string) []byte {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxExcludesBytes))
	if err != nil {
		return nil
	}
	return data
}

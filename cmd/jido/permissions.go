package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/termsafe"
)

// ProjectConfig is the project's jido configuration, relative to the root.
const ProjectConfig = ".jido/config.toml"

// loadPermissions loads the approval rules: the user's ($XDG_CONFIG_HOME/jido/config.toml)
// then the project's, whose loosening parts need the user's trust (jido trust), and applies
// the --mode flag over the configs' mode.
func loadPermissions(root, mode string) (*policy.Engine, error) {
	user := ""
	if dir, err := os.UserConfigDir(); err == nil {
		user = filepath.Join(dir, "jido", "config.toml")
	}
	trust, err := projectState(root, "trust")
	if err != nil {
		return nil, err
	}
	engine, err := policy.LoadWithTrust(user, filepath.Join(root, ProjectConfig), trust)
	if err != nil {
		return nil, err
	}
	if mode != "" {
		m, err := policy.ParseMode(mode)
		if err != nil {
			return nil, err
		}
		engine.SetMode(m)
	}
	return engine, nil
}

// projectState is a project's file of the given kind in jido's state directory, outside
// the root: beside its journal, e.g. .../jido/trust/<root hash>.
func projectState(root, kind string) (string, error) {
	dir, err := journal.Dir(root)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(filepath.Dir(dir)), kind, filepath.Base(dir)), nil
}

// warnUntrusted tells the user what an untrusted project config asked for and did not get.
func warnUntrusted(perms *policy.Engine, stderr io.Writer) {
	ignored := perms.Ignored()
	if len(ignored) == 0 {
		return
	}
	fmt.Fprintf(stderr, "jido: this project's %s and tools are not trusted, so these parts are ignored:\n", ProjectConfig)
	for _, what := range ignored {
		fmt.Fprintf(stderr, "  %s\n", termsafe.String(what))
	}
	fmt.Fprintln(stderr, "  (read them, then run `jido trust` to apply all of it)")
}

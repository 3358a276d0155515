package main

import (
	"os"
	"path/filepath"

	"github.com/jido-run/jido/policy"
)

// ProjectConfig is the project's jido configuration, relative to the root.
const ProjectConfig = ".jido/config.toml"

// loadPermissions loads the approval rules: the user's ($XDG_CONFIG_HOME/jido/config.toml)
// then the project's, and applies the --mode flag over the configs' mode.
func loadPermissions(root, mode string) (*policy.Engine, error) {
	user := ""
	if dir, err := os.UserConfigDir(); err == nil {
		user = filepath.Join(dir, "jido", "config.toml")
	}
	engine, err := policy.Load(user, filepath.Join(root, ProjectConfig))
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

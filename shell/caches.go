package shell

import (
	"os"
	"path/filepath"
)

// projectCache returns the private cache of kind (a tool's: gocache, npm, pip) for key (a
// project root, or what the worktrees of one repository share), outside the project in
// the user's cache directory, made if missing: kept across sessions, read-write to the
// commands of that key alone, and never the user's own.
func projectCache(kind, key string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, "jido", kind, shortHash(key))
	return dir, os.MkdirAll(dir, 0o700)
}

// downloadCaches are the package managers' caches that commands keep per key, by the
// variable that points the tool at it: under the session's HOME they were empty every
// session, so that each one downloaded (with network) or failed (without) again. The
// user's own are not shared: npm refuses a cache it cannot write, pip disables it.
var downloadCaches = map[string]string{"npm_config_cache": "npm", "PIP_CACHE_DIR": "pip"}

// toolEnv is the environment of the package managers for the commands of key: their
// private caches (whose directories it returns, for the sandbox to make writable), cargo
// told not to clean the user's CARGO_HOME, which commands cannot write (it warned on every
// command that it could not track it), and without network, their offline switches:
// without them they retry before failing, for seconds to minutes (measured in the sandbox:
// cargo 12 s, npm past 15 s, pip 4 s; offline they fail at once, saying so).
func toolEnv(key string, network bool) (map[string]string, []string, error) {
	env := map[string]string{"CARGO_CACHE_AUTO_CLEAN_FREQUENCY": "never"}
	var dirs []string
	for name, kind := range downloadCaches {
		dir, err := projectCache(kind, key)
		if err != nil {
			return nil, nil, err
		}
		env[name] = dir
		dirs = append(dirs, dir)
	}
	if !network {
		env["CARGO_NET_OFFLINE"] = "true"
		env["npm_config_offline"] = "true"
		env["PIP_NO_INDEX"] = "1"
	}
	return env, dirs, nil
}

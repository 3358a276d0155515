package shell

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// secretVar matches the names of environment variables that hold credentials, which a
// command must not inherit: tokens, keys, passwords, cloud and AI-provider credentials,
// agent sockets.
var secretVar = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH|COOKIE|SESSION|^AWS_|^AZURE_|^ARM_CLIENT|^GOOGLE_APPLICATION_CREDENTIALS$|^GCP_|^GH_|^GITHUB_|^GITLAB_|^OPENAI_|^ANTHROPIC_|^GEMINI_|^HF_|^HUGGING|^SSH_AUTH_SOCK$|^GPG_AGENT|^KUBECONFIG$|^DOCKER_AUTH|^NPM_CONFIG__AUTH|^PGPASSWORD$)`)
})

// IsSecretVar reports whether an environment variable name looks like a credential.
func IsSecretVar(name string) bool { return secretVar().MatchString(name) }

// validEnvName accepts POSIX environment variable names.
var validEnvName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// baseEnv is the environment every command starts from: the host's, without credentials,
// with HOME and TMPDIR in the command's private temp dir (the XDG base directories unset,
// so that tools keep their caches and settings there too), the variables of set (the
// private caches and the package managers' switches; they replace the host's whatever the
// case, as npm reads NPM_CONFIG_CACHE as npm_config_cache), and the toolchain homes
// pinned to where they are on the host. GOCACHEPROG is never the host's: the user's own
// cache program could write to a cache the user shares.
func baseEnv(host []string, tmp string, set map[string]string) []string {
	get := func(k string) string {
		for _, kv := range host {
			if name, v, ok := strings.Cut(kv, "="); ok && name == k {
				return v
			}
		}
		return ""
	}
	home := get("HOME")
	pinned := map[string]string{}
	if home != "" {
		pinned["GOPATH"] = filepath.Join(home, "go")
		pinned["CARGO_HOME"] = filepath.Join(home, ".cargo")
		pinned["RUSTUP_HOME"] = filepath.Join(home, ".rustup")
		pinned["PYTHONUSERBASE"] = filepath.Join(home, ".local") // the user's pip install --user packages
	}
	replaced := map[string]bool{}
	for k := range set {
		replaced[strings.ToLower(k)] = true
	}
	var env []string
	for _, kv := range host {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "HOME", "TMPDIR", "TMP", "TEMP", "OLDPWD", "PWD", "GOCACHEPROG",
			"XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR":
			continue
		}
		if IsSecretVar(name) || replaced[strings.ToLower(name)] {
			continue
		}
		delete(pinned, name) // set on the host: keep the host's value
		env = append(env, kv)
	}
	for k, v := range pinned {
		if _, err := os.Stat(v); err == nil {
			env = append(env, k+"="+v)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return append(env, "HOME="+tmp, "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp, "JIDO_SANDBOX=1")
}

// safeGitKeys matches the user's git settings that commands get (as git lists them, lower
// case): who commits, and defaults that run nothing. Never credentials, helpers, hooks
// or aliases.
var safeGitKeys = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(user\.name|user\.email|init\.defaultbranch|core\.autocrlf|pull\.rebase)$`)
})

// writeGitConfig gives the commands' private HOME a .gitconfig with the user's safeGitKeys,
// read from the user's global git configuration in one git call, so that git commit works
// inside.
func writeGitConfig(home string) {
	out, err := exec.Command("git", "config", "--global", "--get-regexp", safeGitKeys().String()).Output()
	if err != nil {
		return
	}
	var b strings.Builder
	section := ""
	for line := range strings.Lines(string(out)) {
		key, v, _ := strings.Cut(strings.TrimRight(line, "\n"), " ")
		if !safeGitKeys().MatchString(key) || v == "" || strings.Contains(v, `"`) {
			continue
		}
		sec, name, _ := strings.Cut(key, ".")
		if sec != section {
			fmt.Fprintf(&b, "[%s]\n", sec)
			section = sec
		}
		fmt.Fprintf(&b, "\t%s = %q\n", name, v)
	}
	if b.Len() > 0 {
		os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(b.String()), 0o600)
	}
}

// withEnv returns base with the request's variables set (replacing base's).
func withEnv(base []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := extra[name]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range extra {
		out = append(out, k+"="+v)
	}
	return out
}

package shell

import (
	"os"
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
// with HOME and TMPDIR in the command's private temp dir, and the toolchain caches pinned
// to where they are on the host (a new HOME would otherwise move Go's build cache and make
// every go command rebuild the standard library).
func baseEnv(host []string, tmp string) []string {
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
		pinned["GOCACHE"] = filepath.Join(home, ".cache", "go-build")
		pinned["GOPATH"] = filepath.Join(home, "go")
		pinned["CARGO_HOME"] = filepath.Join(home, ".cargo")
		pinned["RUSTUP_HOME"] = filepath.Join(home, ".rustup")
	}
	if xdg := get("XDG_CACHE_HOME"); xdg != "" {
		pinned["GOCACHE"] = filepath.Join(xdg, "go-build")
	}
	var env []string
	for _, kv := range host {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case IsSecretVar(name), name == "HOME", name == "TMPDIR", name == "TMP", name == "TEMP", name == "OLDPWD", name == "PWD":
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
	return append(env, "HOME="+tmp, "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp, "JIDO_SANDBOX=1")
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

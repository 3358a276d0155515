package shellclass

import (
	"path"
	"strings"
)

// SecretFiles are the files whose contents a command must not show without asking: a
// read-only command (cat, less, head, grep, base64, sed, git show, ...) that names one, or whose
// input is redirected from one, is Mutating with the reason "reads secret file". The file tools
// refuse these files; the shell can only ask.
//
// The patterns have the syntax of security.Policy.Secret (globs over a slash-separated path,
// matched case-insensitively, "**" standing for any number of directories) and these defaults
// are copied from security.DefaultPolicy, since shellclass imports nothing of jido. A caller
// with another policy may replace SecretFiles and SecretExceptions once, before the first
// classification (they are read without a lock), e.g. with security.DefaultPolicy().Secret.
//
// Only files named on the command line are seen: grep -r KEY . or find -exec cat still read
// secrets below a directory.
var SecretFiles = []string{
	"**/.env*",
	"**/*.pem", "**/*.key", "**/*.p12", "**/*.pfx",
	"**/id_rsa*", "**/id_dsa*", "**/id_ecdsa*", "**/id_ed25519*",
	"**/.netrc", "**/.npmrc", "**/.pypirc", "**/.git-credentials",
	"**/credentials*",
	"**/*.tfstate*",
	"**/.ssh/**", "**/.aws/**", "**/.gnupg/**", "**/.kube/**", "**/.docker/**",
}

// SecretExceptions are the files that match SecretFiles but are not secret, as
// security.DefaultPolicy's SecretExceptions.
var SecretExceptions = []string{"**/*.example", "**/*.sample", "**/*.template", "**/*.pub"}

// isSecretPath reports whether a file name, as written on a command line, names a secret
// file. "~/" and "./" prefixes are dropped; a non-literal word is matched as written, so that
// $HOME/.aws/credentials and *.pem are still recognised.
func isSecretPath(name string) bool {
	name = strings.ToLower(strings.Trim(name, `"'`))
	if name == "" {
		return false
	}
	name = strings.TrimPrefix(name, "~/")
	name = strings.TrimLeft(path.Clean(name), "/")
	if name == "." || name == ".." {
		return false
	}
	parts := strings.Split(name, "/")
	return matchAnyGlob(SecretFiles, parts) && !matchAnyGlob(SecretExceptions, parts)
}

func matchAnyGlob(patterns []string, parts []string) bool {
	for _, p := range patterns {
		if globMatch(strings.Split(strings.ToLower(p), "/"), parts) {
			return true
		}
	}
	return false
}

// globMatch matches path components against pattern components, where "**" matches any
// number of components (none included) and other components are path.Match globs. A leading
// "**" also matches the directories above a relative path, so ../.env and /home/u/.env match.
func globMatch(pat, parts []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for skip := 0; skip <= len(parts); skip++ {
				if globMatch(pat[1:], parts[skip:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], parts[0]); err != nil || !ok {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}

// secretOperand finds a secret file among a command's arguments: an operand, the value of a
// --option=FILE, or the path of a REV:PATH or HOST:PATH word (git show HEAD:.env).
func secretOperand(args []arg) (string, bool) {
	for _, a := range args {
		v := a.val
		if a.lit && strings.HasPrefix(v, "-") {
			_, value, ok := strings.Cut(v, "=")
			if !ok {
				continue
			}
			v = value
		}
		if isSecretPath(v) {
			return v, true
		}
		if i := strings.LastIndexByte(v, ':'); i >= 0 && isSecretPath(v[i+1:]) {
			return v, true
		}
	}
	return "", false
}

// namesOnly are read-only commands whose operands are not files they read (echo .env), or that
// only show file names and metadata, which the file tools show too (ls ~/.ssh). Shells, eval and
// wrappers are not checked either: the commands they run are, on their own.
var namesOnly = map[string]bool{
	"echo": true, "printf": true, "ls": true, "dir": true, "vdir": true, "stat": true, "test": true,
	"[": true, "basename": true, "dirname": true, "realpath": true, "readlink": true, "namei": true,
	"which": true, "whereis": true, "type": true, "cd": true, "pushd": true, "popd": true, "du": true,
	"df": true, "true": true, "false": true, ":": true, "sleep": true, "seq": true, "expr": true,
	"set": true, "unset": true, "read": true, "mapfile": true, "readarray": true, "hash": true,
	"lsattr": true, "getfacl": true, "command": true, "help": true, "whatis": true,
	"apropos": true, "tree": true, "find": true, "fd": true, "fdfind": true, "trap": true, "eval": true,
	"flock": true, "parallel": true,
}

// readsSecret raises a read-only verdict when the command names a secret file.
func readsSecret(x *call, v verdict) verdict {
	key := strings.ToLower(x.name)
	if v.Class != ReadOnly || namesOnly[key] || wrappers[key] != nil || shellNames[key] {
		return v
	}
	if f, ok := secretOperand(x.args); ok {
		return verdict{Mutating, x.name + " reads secret file " + f}
	}
	return v
}

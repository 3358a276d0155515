package security

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Policy decides which canonical paths are secret (no read, no write) and protected (no write/delete/rename).
// Patterns are doublestar globs over the canonical root-relative path, matched
// case-insensitively; a path is secret when it matches a Secret pattern and no
// SecretExceptions pattern, protected when it or one of its parent directories matches a
// Protected pattern and neither it nor a parent matches a ProtectedExceptions pattern.
type Policy struct {
	Secret              []string
	SecretExceptions    []string
	Protected           []string
	ProtectedExceptions []string
}

// DefaultProtected are the patterns of the paths that nothing but the user may change,
// because what they hold runs later outside the sandbox or widens jido's policy: git's
// directory (hooks, config), jido's own (config, tools; but its output directory), editor
// settings that run tasks, direnv's .envrc and shell rc files. The command sandbox makes
// the same paths read-only.
func DefaultProtected() []string {
	return anyDepth(".git", ".git/**", ".jido", ".jido/**", ".vscode", ".vscode/**", ".idea", ".idea/**", ".envrc",
		".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
		".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".inputrc")
}

// anyDepth makes each pattern match at any depth of the tree.
func anyDepth(patterns ...string) []string {
	for i, p := range patterns {
		patterns[i] = "**/" + p
	}
	return patterns
}

// DefaultPolicy returns jido's default secret and protected patterns: environment files,
// private keys, credential files and cloud/SSH config directories are secret (their
// *.example, *.sample, *.template and *.pub companions are not); DefaultProtected are
// protected, but for jido's output directory (command outputs and test reports, which
// nothing runs).
func DefaultPolicy() Policy {
	return Policy{
		Secret: anyDepth(
			".env*",
			"*.pem", "*.key", "*.p12", "*.pfx",
			"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
			".netrc", ".npmrc", ".pypirc", ".git-credentials",
			"credentials*",
			"*.tfstate*",
			".ssh/**", ".aws/**", ".gnupg/**", ".kube/**", ".docker/**",
		),
		SecretExceptions:    anyDepth("*.example", "*.sample", "*.template", "*.pub"),
		Protected:           DefaultProtected(),
		ProtectedExceptions: []string{".jido/output", ".jido/output/**"},
	}
}

// policy is a Policy with its patterns validated and lowercased.
type policy struct {
	spec                                            Policy
	secret, exceptions, protected, protectedExcepts []pathPattern
}

// compilePolicy validates and lowercases the patterns of p.
func compilePolicy(p Policy) (policy, error) {
	lower := func(patterns []string) ([]pathPattern, error) {
		out := make([]pathPattern, len(patterns))
		for i, pat := range patterns {
			if !doublestar.ValidatePattern(pat) {
				return nil, fmt.Errorf("invalid policy pattern %q", pat)
			}
			out[i] = compilePattern(strings.ToLower(pat))
		}
		return out, nil
	}
	var c policy
	var err error
	if c.secret, err = lower(p.Secret); err != nil {
		return policy{}, err
	}
	if c.exceptions, err = lower(p.SecretExceptions); err != nil {
		return policy{}, err
	}
	if c.protected, err = lower(p.Protected); err != nil {
		return policy{}, err
	}
	if c.protectedExcepts, err = lower(p.ProtectedExceptions); err != nil {
		return policy{}, err
	}
	c.spec = p.clone()
	return c, nil
}

// clone returns a deep copy of p.
func (p Policy) clone() Policy {
	return Policy{
		Secret:              slices.Clone(p.Secret),
		SecretExceptions:    slices.Clone(p.SecretExceptions),
		Protected:           slices.Clone(p.Protected),
		ProtectedExceptions: slices.Clone(p.ProtectedExceptions),
	}
}

// Policy returns a copy of the root's policy.
func (r *Root) Policy() Policy { return r.policy.spec.clone() }

// IsSecret reports whether the canonical path (as returned by Resolve) is a secret file,
// which is never read, written, removed or renamed (its name stays visible in listings).
func (r *Root) IsSecret(canonical string) bool {
	p := strings.ToLower(canonical)
	return matchAny(r.policy.secret, p) && !matchAny(r.policy.exceptions, p)
}

// IsProtected reports whether the canonical path (as returned by Resolve) or one of its
// parent directories is protected, so that it is never written, deleted or renamed.
func (r *Root) IsProtected(canonical string) bool {
	p := strings.ToLower(canonical)
	for {
		if matchAny(r.policy.protectedExcepts, p) {
			return false
		}
		if matchAny(r.policy.protected, p) {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// matchAny reports whether name matches one of the patterns.
func matchAny(patterns []pathPattern, name string) bool {
	for i := range patterns {
		if patterns[i].match(name) {
			return true
		}
	}
	return false
}

// checkPolicy refuses a secret canonical path, and a protected one when the operation
// modifies it.
func (r *Root) checkPolicy(op, canonical string, modify bool) error {
	switch {
	case r.IsSecret(canonical):
		return pathError(op, canonical, ErrSecret)
	case modify && r.IsProtected(canonical):
		return pathError(op, canonical, ErrProtected)
	}
	return nil
}

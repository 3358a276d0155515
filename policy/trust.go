package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// digest is the trust record of a project config's content.
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// trusts reports whether data, a project config's content, may loosen the user's rules:
// no trust file is kept, the config is empty, or its digest is the one recorded.
func (e *Engine) trusts(data []byte) bool {
	if e.trustPath == "" || len(bytes.TrimSpace(data)) == 0 {
		return true
	}
	rec, err := os.ReadFile(e.trustPath)
	return err == nil && strings.TrimSpace(string(rec)) == digest(data)
}

// Ignored lists what an untrusted project config asked for and was not given (allow rules,
// a looser mode, roles), one "file:line: what" each, so that the user can be told.
func (e *Engine) Ignored() []string {
	if e.parent != nil {
		return e.parent.Ignored()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.ignored...)
}

// Protected returns the globs of the paths the config files protect (the `protected` key
// of the user's and the project's config; a project's applies before trust, since it only
// adds protection), relative to the project root.
func (e *Engine) Protected() []string {
	if e.parent != nil {
		return e.parent.Protected()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.protected...)
}

// Trust records the project config's content as read now as trusted, so that the next
// load applies all of it. It is an error without a trust file (LoadWithTrust) or a project
// config. A caller that showed the file to the user calls TrustContent with what it showed.
func (e *Engine) Trust() error {
	path, err := e.projectConfig()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	return e.TrustContent(data)
}

// TrustContent records data, the project config's content exactly as the user read it, as
// trusted (`jido trust` shows the file, then records the digest of those bytes: a file
// changed in between is not trusted).
func (e *Engine) TrustContent(data []byte) error {
	if e.parent != nil {
		return e.parent.TrustContent(data)
	}
	if _, err := e.projectConfig(); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.recordDigest(data)
}

// projectConfig is the project config file of the engine that keeps trust records.
func (e *Engine) projectConfig() (string, error) {
	if e.parent != nil {
		return e.parent.projectConfig()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	path := e.files[scopeIndex(ScopeProject)]
	if e.trustPath == "" || path == "" {
		return "", errors.New("policy: this engine keeps no trust record")
	}
	return path, nil
}

// recordDigest writes the digest of data, a project config's content, to the trust file.
// The caller holds e.mu.
func (e *Engine) recordDigest(data []byte) error {
	if err := os.MkdirAll(filepath.Dir(e.trustPath), 0o700); err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	return writeAtomic(e.trustPath, []byte(digest(data)+"\n"))
}

// describeRule renders r on one line, for messages: `tool = "run_shell", command = "make"`.
func describeRule(r Rule) string {
	body := strings.TrimSpace(strings.SplitN(renderRule(r), "\n", 2)[1])
	return strings.ReplaceAll(body, "\n", ", ")
}

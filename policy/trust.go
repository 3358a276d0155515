package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// digest is the trust record of a project's content (see bundle).
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ToolFile is one of the project's Lua tools as trust covers it: its file name in the
// tools directory and its content.
type ToolFile struct {
	Name string
	Data []byte
}

// ToolsDir is the project's Lua tools directory, beside its config file (.jido/tools).
const ToolsDir = "tools"

// ProjectTools reads the *.lua files of the project's tools directory, sorted by name
// (nil without a project config path or a directory). A file that cannot be read is
// listed with no content, so that it still voids a trust recorded without it.
func (e *Engine) ProjectTools() []ToolFile {
	if e.parent != nil {
		return e.parent.ProjectTools()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.projectToolsLocked()
}

// bundle is what a trust record covers: the project config's bytes and each of the
// project's tools (name and content), unambiguously framed.
func bundle(config []byte, tools []ToolFile) []byte {
	b := append([]byte(nil), config...)
	for _, t := range tools {
		b = fmt.Appendf(b, "\x00tool\x00%s\x00%d\x00", t.Name, len(t.Data))
		b = append(b, t.Data...)
	}
	return b
}

// trusts reports whether config, a project config's content, together with the project's
// tools as they are now, may loosen the user's rules and load: no trust file is kept, there
// is nothing (an empty config, no tools), or the digest is the one recorded.
func (e *Engine) trusts(config []byte) bool {
	return e.trustsBundle(config, e.projectToolsLocked())
}

// trustsBundle is trusts for given tools.
func (e *Engine) trustsBundle(config []byte, tools []ToolFile) bool {
	if e.trustPath == "" || (len(bytes.TrimSpace(config)) == 0 && len(tools) == 0) {
		return true
	}
	rec, err := os.ReadFile(e.trustPath)
	return err == nil && strings.TrimSpace(string(rec)) == digest(bundle(config, tools))
}

// projectToolsLocked is ProjectTools for a caller that holds e.mu (of the root engine).
func (e *Engine) projectToolsLocked() []ToolFile {
	path := e.files[scopeIndex(ScopeProject)]
	if path == "" {
		return nil
	}
	dir := filepath.Join(filepath.Dir(path), ToolsDir)
	names, _ := filepath.Glob(filepath.Join(dir, "*.lua")) // sorted
	var out []ToolFile
	for _, name := range names {
		data, _ := os.ReadFile(name)
		out = append(out, ToolFile{Name: filepath.Base(name), Data: data})
	}
	return out
}

// ToolsTrusted reports whether the project's Lua tools may load: the project's config and
// tools, as they are now, are what the user trusted (always, for an engine that keeps no
// trust record). A change to either voids it until jido trust.
func (e *Engine) ToolsTrusted() bool {
	if e.parent != nil {
		return e.parent.ToolsTrusted()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.trustPath == "" {
		return true
	}
	config, err := os.ReadFile(e.files[scopeIndex(ScopeProject)])
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return e.trustsBundle(config, e.projectToolsLocked())
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

// Trust records the project's config and tools as read now as trusted, so that the next
// load applies all of it. It is an error without a trust file (LoadWithTrust) or a project
// config path. A caller that showed them to the user calls TrustProject with what it showed.
func (e *Engine) Trust() error {
	path, err := e.projectConfig()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("policy: %w", err)
	}
	return e.TrustProject(data, e.ProjectTools())
}

// TrustProject records config and tools, the project's config and Lua tools exactly as the
// user read them, as trusted (`jido trust` shows them, then records the digest of those
// bytes: a file changed in between is not trusted).
func (e *Engine) TrustProject(config []byte, tools []ToolFile) error {
	if e.parent != nil {
		return e.parent.TrustProject(config, tools)
	}
	if _, err := e.projectConfig(); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.recordDigest(bundle(config, tools))
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

// recordDigest writes the digest of data, a project's bundle, to the trust file. The
// caller holds e.mu.
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

// ConfigFile returns the config file of a project or user scope ("" when the engine has
// none): where Remember writes that scope's rules, and where a person adds them by hand.
func (e *Engine) ConfigFile(scope Scope) string {
	if e.parent != nil {
		return e.parent.ConfigFile(scope)
	}
	si := scopeIndex(scope)
	if si < 0 {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.files[si]
}

// NeedsTrust reports whether the allow rules of the project config apply only while its
// content is trusted (LoadWithTrust with a trust file): then a rule added to it by hand, or
// any other edit of it, applies only after `jido trust` records the new content. (A rule
// Remember writes keeps a trusted file trusted.) The user's config never needs trust.
func (e *Engine) NeedsTrust() bool {
	if e.parent != nil {
		return e.parent.NeedsTrust()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.trustPath != "" && e.files[scopeIndex(ScopeProject)] != ""
}

// ProjectTrusted reports whether the project's config and tools, as they are now, are
// trusted (see ToolsTrusted): an allow rule Remember adds to the project config then
// applies in later sessions too; otherwise only in this process until `jido trust`.
func (e *Engine) ProjectTrusted() bool { return e.ToolsTrusted() }

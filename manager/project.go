package manager

import (
	"cmp"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/redact"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/usertools"
	"github.com/jido-run/jido/walk"
)

// RootSetup is what a project root other than Config.Root needs: its policy (the rules of
// its own .jido/config.toml), where its journal lives, and the key of its build caches.
type RootSetup struct {
	Permissions   *policy.Engine // nil: Config.Permissions
	JournalDir    string         // "" keeps no journal
	BuildCacheKey string         // as Config.BuildCacheKey, for this root
	// GitDir and GitCommonDir are as Config's, for this root.
	GitDir, GitCommonDir string
}

// project is one confined root and what the sessions on it share.
type project struct {
	key     string // the root's absolute, symlink-free path: the projects map key
	root    *security.Root
	walker  *walk.Walker
	journal *journal.Journal // nil without a journal dir
	perms   *policy.Engine   // nil: every call runs
	tools   *usertools.Registry
	shell   shell.Options
	git     *builtin.GitDir // where the git tools read a linked worktree's repository (nil: root/.git)
	refs    int             // open sessions; the default project is also held by the manager
	// redactor is the default rules plus the values of the project's secret files, looked
	// for the first time a tool needs redaction and again now and then (secretRedactor).
	redactor func() *redact.Redactor
}

// rootKey is the absolute, symlink-free form of dir that identifies a project.
func rootKey(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// projectPolicy is the secret and protected paths of a project: Config.Policy (nil: the
// defaults, security.DefaultPolicy) plus the globs of the config files' protected list
// (policy.Engine.Protected of setup's or else Config's engine; a project's own list
// applies before trust, since it only adds protection). It is the one merged list: the
// project's Root refuses the file tools on it, and the command sandbox sees the same
// paths read-only, since shell.Options.Root is that Root (Root.IsProtected, and
// Root.Policy().Protected and ProtectedExceptions for the patterns themselves).
func projectPolicy(cfg *Config, setup RootSetup) security.Policy {
	pol := security.DefaultPolicy()
	if cfg.Policy != nil {
		pol = *cfg.Policy
		pol.Protected = slices.Clone(pol.Protected) // the caller's slice is not appended to
	}
	if perms := cmp.Or(setup.Permissions, cfg.Permissions); perms != nil {
		pol.Protected = append(pol.Protected, perms.Protected()...)
	}
	return pol
}

// openProject opens dir as a project with setup, recovering change sets a crash left
// half applied.
func openProject(cfg *Config, key string, setup RootSetup) (*project, error) {
	pol := projectPolicy(cfg, setup)
	root, err := security.Open(key, security.Options{Policy: &pol, MaxFileSize: cfg.MaxFileSize, NoSync: cfg.NoSync})
	if err != nil {
		return nil, err
	}
	if cfg.SweepTemps {
		go func() { _, _ = root.SweepTemps(staleTempAge) }()
	}
	p := &project{
		key: key, root: root, walker: walk.New(root, cfg.GitExcludes), perms: setup.Permissions,
		tools: usertools.NewRegistry(toolSources(root, cfg.ToolDirs, cmp.Or(setup.Permissions, cfg.Permissions)), func(name string) bool {
			return isBuiltin(name) || slices.ContainsFunc(cfg.Tools, func(t *builtin.Tool) bool { return t.Def.Name == name })
		}, 0),
		shell: shell.Options{
			Root: root, Network: cfg.Network, Helper: cfg.SandboxHelper,
			ReadOnly: cfg.SandboxReadOnly, ReadWrite: cfg.SandboxReadWrite, BuildCacheKey: setup.BuildCacheKey,
		},
	}
	p.redactor = (&secretRedactor{root: root, walker: p.walker}).get
	if setup.GitDir != "" {
		if p.git, err = openGitDir(setup.GitDir, setup.GitCommonDir, pol); err != nil {
			root.Close()
			return nil, err
		}
	}
	if setup.JournalDir != "" {
		if p.journal, err = journal.Open(setup.JournalDir, journal.Limits{}); err != nil {
			root.Close()
			return nil, err
		}
		if _, err := p.journal.Recover(root); err != nil {
			p.close()
			return nil, fmt.Errorf("rolling back a change interrupted by a crash failed (its record stays in %s/pending for the next try): %w", setup.JournalDir, err)
		}
		go func() { _ = p.journal.Prune() }()
	}
	return p, nil
}

// ProjectTools is where a project keeps its Lua tools, relative to its root.
const ProjectTools = ".jido/tools"

// toolSources are the directories of a project's user tools: the directories of the
// Config (the user's own, --tools), then the project's .jido/tools, read through the Root.
// A project's tools come with the repository: with a policy that keeps trust records,
// they load only while the project's config and tools are the ones the user trusted.
func toolSources(root *security.Root, dirs []string, perms *policy.Engine) []usertools.Source {
	out := usertools.Dirs(dirs)
	if sub, err := fs.Sub(root.FS(), ProjectTools); err == nil {
		if perms != nil {
			sub = trustedFS{sub, perms.ToolsTrusted}
		}
		out = append(out, usertools.Source{Label: ProjectTools, FS: sub})
	}
	return out
}

// trustedFS is a directory that reads as missing while trusted says no.
type trustedFS struct {
	fs.FS
	trusted func() bool
}

func (t trustedFS) Open(name string) (fs.File, error) {
	if !t.trusted() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return t.FS.Open(name)
}

// isBuiltin reports whether name is taken by a built-in tool or a bridge function.
func isBuiltin(name string) bool {
	_, ok := definitions.Lookup(name)
	return ok || name == "call" || name == "tool"
}

// close releases the root and the journal.
func (p *project) close() {
	if p.journal != nil {
		p.journal.Close()
	}
	if p.git != nil {
		p.git.Root.Close()
	}
	p.root.Close()
}

// openGitDir opens the repository of a linked worktree for the git tools: a Root over the
// main work tree that holds the common git directory, with both git directories in it.
func openGitDir(gitDir, commonDir string, pol security.Policy) (*builtin.GitDir, error) {
	top := filepath.Dir(filepath.Clean(commonDir))
	own, err := filepath.Rel(top, filepath.Clean(gitDir))
	if err != nil || !filepath.IsAbs(commonDir) || own == ".." || strings.HasPrefix(own, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("the worktree's git directory %s is not inside the repository of %s", gitDir, commonDir)
	}
	root, err := security.Open(top, security.Options{Policy: &pol})
	if err != nil {
		return nil, fmt.Errorf("opening the worktree's repository: %w", err)
	}
	return &builtin.GitDir{Root: root, Common: filepath.Base(commonDir), Worktree: filepath.ToSlash(own)}, nil
}

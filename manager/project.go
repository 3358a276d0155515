package manager

import (
	"fmt"
	"path/filepath"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/walk"
)

// RootSetup is what a project root other than Config.Root needs: its policy (the rules of
// its own .jido/config.toml) and where its journal lives.
type RootSetup struct {
	Permissions *policy.Engine // nil: Config.Permissions
	JournalDir  string         // "" keeps no journal
}

// project is one confined root and what the sessions on it share.
type project struct {
	key     string // the root's absolute, symlink-free path: the projects map key
	root    *security.Root
	walker  *walk.Walker
	journal *journal.Journal // nil without a journal dir
	perms   *policy.Engine   // nil: every call runs
	shell   shell.Options
	refs    int // open sessions; the default project is also held by the manager
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

// openProject opens dir as a project with setup, recovering change sets a crash left
// half applied.
func openProject(cfg *Config, key string, setup RootSetup) (*project, error) {
	root, err := security.Open(key, security.Options{Policy: cfg.Policy, MaxFileSize: cfg.MaxFileSize, NoSync: cfg.NoSync})
	if err != nil {
		return nil, err
	}
	if cfg.SweepTemps {
		go func() { _, _ = root.SweepTemps(staleTempAge) }()
	}
	p := &project{
		key: key, root: root, walker: walk.New(root, cfg.GitExcludes), perms: setup.Permissions,
		shell: shell.Options{
			Root: root, Network: cfg.Network, Helper: cfg.SandboxHelper,
			ReadOnly: cfg.SandboxReadOnly, ReadWrite: cfg.SandboxReadWrite,
		},
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

// close releases the root and the journal.
func (p *project) close() {
	if p.journal != nil {
		p.journal.Close()
	}
	p.root.Close()
}

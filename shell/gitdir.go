package shell

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"
)

// What a command may change in a repository's git directory is an allow-list: the entries
// that everyday local git work writes (gitrepository-layout(5)): the object store, refs
// and their logs, the index, HEAD and the state files beside it, lock and temporary files.
// Everything else (config, config.worktree, commondir, hooks/, info/, modules/,
// worktrees/, shallow, objects/info/alternates, and whatever git adds next) is seen
// read-only by the command when it exists and is taken away after the command when the
// command made it. Sequencer state may outlive a command (a stopped rebase is continued
// later) but without the lines that run a program.

// gitWritable names the top-level entries of a git directory a command may change.
var gitWritable = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(objects|refs|logs|rr-cache|lost-found|index|HEAD|ORIG_HEAD|FETCH_HEAD|MERGE_HEAD|MERGE_MODE|MERGE_MSG|MERGE_RR|MERGE_AUTOSTASH|CHERRY_PICK_HEAD|REVERT_HEAD|REBASE_HEAD|AUTO_MERGE|BISECT_[A-Z_]+|COMMIT_EDITMSG|SQUASH_MSG|TAG_EDITMSG|NOTES_EDITMSG|EDIT_DESCRIPTION|NOTES_MERGE_[A-Z_]+|BRANCH_DESCRIPTION|packed-refs|gc\.pid|gc\.log|.*\.lock|index\.stash\.[0-9]+|next-index-[0-9]+|` + sequencerDirs + `)$`)
})

// sequencerDirs are the state of a rebase, a cherry-pick or a revert in progress.
const sequencerDirs = `rebase-merge|rebase-apply|sequencer`

// gitObjectsUnsafe are the files of the object store a command may not make: they point
// git at objects elsewhere.
var gitObjectsUnsafe = []string{"objects/info/alternates", "objects/info/http-alternates"}

// gitNewRepoKeeps are the entries, beyond gitWritable, that a repository the command made
// (git init, clone, submodule add) keeps, made harmless: its config without the keys that
// run programs, its hooks but git's samples, its info, description and branches, the shallow list
// of a shallow clone, its submodules' git directories (each made harmless the same way).
var gitNewRepoKeeps = []string{"config", "hooks", "info", "description", "branches", "shallow", "modules"}

// maxSavedFile bounds the git files saved before a command to restore them byte for byte.
const maxSavedFile = 256 << 10

// gitState is what a git directory held before a command.
type gitState struct {
	names map[string]bool      // its top-level entries
	files map[string]savedFile // its non-writable regular files (config, commondir, ...), by top-level name
	hooks map[string]fileStamp // its hooks directory's entries
	extra []string             // the files of gitObjectsUnsafe that existed
}

// savedFile is a file's content and mode.
type savedFile struct {
	data []byte
	mode os.FileMode
}

// fileStamp tells whether an entry changed: its identity, size, modification time and
// permissions.
type fileStamp struct {
	id    fileID
	size  int64
	mtime int64
	mode  os.FileMode
}

// scanGitDir looks at the git directory rel (root-relative) before a command: it makes its
// hooks and info directories when missing (so that a command cannot create them), adds its
// non-writable entries, the unsafe files of its object store and its hooksPath directory
// inside the project to the protected paths, and saves what the audit compares with.
func (sc *Scan) scanGitDir(h *hostFS, host, rel string) {
	for _, name := range []string{"hooks", "info"} {
		if d, err := h.dir(rel+"/"+name, true); err == nil {
			d.Close()
		}
	}
	entries, err := h.readDir(rel)
	if err != nil {
		return
	}
	st := gitState{names: map[string]bool{}, files: map[string]savedFile{}, hooks: map[string]fileStamp{}}
	abs := filepath.Join(host, filepath.FromSlash(rel))
	for _, e := range entries {
		st.names[e.Name()] = true
		if gitWritable().MatchString(e.Name()) || e.Type()&os.ModeSymlink != 0 {
			continue
		}
		sc.Paths.Protected = append(sc.Paths.Protected, filepath.Join(abs, e.Name()))
		if e.Type().IsRegular() {
			if stamp, ok := h.stamp(rel + "/" + e.Name()); ok && stamp.size <= maxSavedFile {
				if data, ok, _ := h.readFile(rel+"/"+e.Name(), maxSavedFile); ok {
					st.files[e.Name()] = savedFile{data: data, mode: stamp.mode.Perm()}
				}
			}
		}
	}
	if hooks, err := h.readDir(rel + "/hooks"); err == nil {
		for _, e := range hooks {
			if stamp, ok := h.stamp(rel + "/hooks/" + e.Name()); ok {
				st.hooks[e.Name()] = stamp
			}
		}
	}
	for _, name := range gitObjectsUnsafe {
		if _, ok, _ := h.readFile(rel+"/"+name, maxSavedFile); ok {
			st.extra = append(st.extra, name)
			sc.Paths.Protected = append(sc.Paths.Protected, filepath.Join(abs, filepath.FromSlash(name)))
		}
	}
	if hp := hooksPath(st.files["config"].data, rel); hp != "" {
		if d, err := h.dir(hp, true); err == nil {
			d.Close()
			sc.Paths.Protected = append(sc.Paths.Protected, filepath.Join(host, filepath.FromSlash(hp)))
		}
	}
	sc.gitDirs[rel] = st
}

// hooksPath is the directory a repository's config names as core.hooksPath, relative to
// the root, when it lies inside the project (relative to the work tree, the git
// directory's parent); "" otherwise.
func hooksPath(config []byte, gitDir string) string {
	if len(config) == 0 {
		return ""
	}
	cfg := gitconfig.New()
	if gitconfig.NewDecoder(bytes.NewReader(config)).Decode(cfg) != nil {
		return ""
	}
	hp := cfg.Section("core").Option("hooksPath")
	if hp == "" || filepath.IsAbs(hp) || strings.HasPrefix(hp, "~") {
		return "" // outside the project: commands cannot write there
	}
	p := path.Clean(path.Join(path.Dir(gitDir), hp))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// auditGitDirs undoes, after a command, what it did in git directories beyond what it may:
// in a directory that existed, its new entries outside the allow-list are moved away, its
// files changed in place (where Landlock alone confines commands) are restored byte for
// byte, a hook changed or added is moved away; a repository the command made keeps what
// gitNewRepoKeeps says, made harmless; and sequencer state loses its exec lines.
func auditGitDirs(h *hostFS, before, after Scan, id string) []string {
	var notes []string
	for _, rel := range slices.Sorted(maps.Keys(after.gitDirs)) {
		prev, existed := before.gitDirs[rel]
		notes = append(notes, auditGitDir(h, rel, prev, existed, id)...)
	}
	for _, rel := range slices.Sorted(maps.Keys(after.gitLinks)) {
		if target, ok := before.gitLinks[rel]; !ok || target != after.gitLinks[rel] {
			notes = append(notes, quarantine(h, rel, id, "a .git link (it points git at a directory the command chose)"))
		}
	}
	return notes
}

// auditGitDir audits one git directory; prev is its state before the command.
func auditGitDir(h *hostFS, rel string, prev gitState, existed bool, id string) []string {
	entries, err := h.readDir(rel)
	if err != nil {
		return nil
	}
	var notes []string
	for _, e := range entries {
		name, sub := e.Name(), rel+"/"+e.Name()
		switch {
		case slices.Contains(strings.Split(sequencerDirs, "|"), name):
			notes = append(notes, sanitizeSequencer(h, sub)...)
		case gitWritable().MatchString(name):
		case !existed && slices.Contains(gitNewRepoKeeps, name):
			notes = append(notes, keepNewRepoEntry(h, rel, name, id)...)
		case !existed || !prev.names[name]:
			notes = append(notes, quarantine(h, sub, id, "not among what commands may change in a git directory"))
		case name == "hooks":
			notes = append(notes, auditHooks(h, sub, prev.hooks, id)...)
		default:
			if saved, ok := prev.files[name]; ok {
				notes = append(notes, restoreFile(h, sub, saved)...)
			}
		}
	}
	for _, name := range gitObjectsUnsafe {
		if _, ok, _ := h.readFile(rel+"/"+name, maxSavedFile); ok && !slices.Contains(prev.extra, name) {
			notes = append(notes, quarantine(h, rel+"/"+name, id, "it points git at objects elsewhere"))
		}
	}
	return notes
}

// keepNewRepoEntry makes harmless what a repository the command made keeps.
func keepNewRepoEntry(h *hostFS, gitDir, name, id string) []string {
	switch name {
	case "config":
		return sanitizeConfig(h, gitDir+"/config", id)
	case "hooks":
		return auditHooks(h, gitDir+"/hooks", nil, id)
	case "modules":
		return auditModules(h, gitDir+"/modules", id)
	}
	return nil
}

// auditHooks moves away every hook but git's samples that is new or changed since before.
func auditHooks(h *hostFS, hooks string, before map[string]fileStamp, id string) []string {
	entries, err := h.readDir(hooks)
	if err != nil {
		return nil
	}
	var notes []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sample") && e.Type().IsRegular() {
			continue
		}
		now, ok := h.stamp(hooks + "/" + e.Name())
		if old, was := before[e.Name()]; ok && was && old == now {
			continue
		}
		notes = append(notes, quarantine(h, hooks+"/"+e.Name(), id, "a hook runs outside the sandbox"))
	}
	return notes
}

// auditModules audits the git directories of a new repository's submodules as new ones.
func auditModules(h *hostFS, modules, id string) []string {
	entries, err := h.readDir(modules)
	if err != nil {
		return nil
	}
	var notes []string
	for _, e := range entries {
		if !e.IsDir() || e.Type()&os.ModeSymlink != 0 {
			continue
		}
		sub := modules + "/" + e.Name()
		if _, ok, _ := h.readFile(sub+"/HEAD", maxSavedFile); ok {
			notes = append(notes, auditGitDir(h, sub, gitState{}, false, id)...)
		} else {
			notes = append(notes, auditModules(h, sub, id)...) // a submodule's name with a slash
		}
	}
	return notes
}

// restoreFile puts back a git file the command changed in place.
func restoreFile(h *hostFS, rel string, saved savedFile) []string {
	data, ok, _ := h.readFile(rel, maxSavedFile)
	if ok && bytes.Equal(data, saved.data) {
		return nil
	}
	if err := h.writeFile(rel, saved.data, saved.mode); err != nil {
		return []string{fmt.Sprintf("%s was changed by the command and jido could not restore it (%v): check it before running git here", rel, err)}
	}
	return []string{fmt.Sprintf("%s: jido restored it as it was before the command (commands may not change it)", rel)}
}

// sanitizeConfig removes from the git config file rel the keys that run programs or read
// configuration from elsewhere; a config jido cannot read or parse is moved away.
func sanitizeConfig(h *hostFS, rel, id string) []string {
	data, ok, err := h.readFile(rel, maxSavedFile)
	if !ok || err != nil {
		return []string{quarantine(h, rel, id, "a git config jido could not read")}
	}
	cfg := gitconfig.New()
	if gitconfig.NewDecoder(bytes.NewReader(data)).Decode(cfg) != nil {
		return []string{quarantine(h, rel, id, "a git config jido could not parse")}
	}
	var removed []string
	keep := func(key string) bool {
		if dangerousGitKey().MatchString(strings.ToLower(key)) {
			removed = append(removed, key)
			return false
		}
		return true
	}
	for _, s := range cfg.Sections {
		s.Options = slices.DeleteFunc(s.Options, func(o *gitconfig.Option) bool { return !keep(s.Name + "." + o.Key) })
		for _, ss := range s.Subsections {
			ss.Options = slices.DeleteFunc(ss.Options, func(o *gitconfig.Option) bool { return !keep(s.Name + "." + ss.Name + "." + o.Key) })
		}
	}
	if len(removed) == 0 {
		return nil
	}
	var out bytes.Buffer
	if err := gitconfig.NewEncoder(&out).Encode(cfg); err != nil || h.writeFile(rel, out.Bytes(), 0o644) != nil {
		return []string{quarantine(h, rel, id, "a git config jido could not clean")}
	}
	notes := make([]string, len(removed))
	for i, key := range removed {
		notes[i] = fmt.Sprintf("%s: jido removed %s, set by the command (it would run a program outside the sandbox)", rel, key)
	}
	return notes
}

// sequencerTodos are the files of sequencer state that list the steps to come.
var sequencerTodos = []string{"git-rebase-todo", "git-rebase-todo.backup", "todo", "done"}

// runsAProgram matches a todo line that runs a program: exec (x) in a rebase, and the
// forms git may add that hand a line to the shell.
var runsAProgram = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(exec|x)([ \t].*)?$\n?`)
})

// sanitizeSequencer removes the lines that run a program from a sequencer directory's
// todo lists, so that `git rebase --continue` on the host runs nothing the command wrote.
func sanitizeSequencer(h *hostFS, dir string) []string {
	var notes []string
	for _, name := range sequencerTodos {
		rel := dir + "/" + name
		data, ok, err := h.readFile(rel, 16<<20)
		if !ok || err != nil || !runsAProgram().Match(data) {
			continue
		}
		if err := h.writeFile(rel, runsAProgram().ReplaceAll(data, nil), 0o644); err != nil {
			notes = append(notes, fmt.Sprintf("%s lists commands to run and jido could not remove them (%v): do not continue this operation", rel, err))
			continue
		}
		notes = append(notes, fmt.Sprintf("%s: jido removed its exec lines (they would run outside the sandbox when the operation is continued)", rel))
	}
	return notes
}

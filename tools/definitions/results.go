package definitions

// FileDiff is the change of one file in a result.
type FileDiff struct {
	Path         string `json:"path"`
	Diff         string `json:"diff"`
	LinesAdded   int    `json:"lines_added"`
	LinesRemoved int    `json:"lines_removed"`
	Region       string `json:"region,omitempty"`
	// UncommittedChanges: before this change the file already differed from what git's
	// index holds (the user's own work in progress, now changed by the agent too).
	UncommittedChanges bool `json:"uncommitted_changes,omitempty"`
}

// Backup says where a change's before-state is kept, so that undo can restore it.
type Backup struct {
	ChangeID   string `json:"change_id,omitempty"`   // the journal entry: undo takes it
	BackupPath string `json:"backup_path,omitempty"` // the before-content of the (first) changed file; "" when it did not exist
	BackupNote string `json:"backup_note,omitempty"` // why the change could not be journaled, when it could not
}

// SetBackup records where the change's before-state is kept (the journal does).
func (b *Backup) SetBackup(v Backup) { *b = v }

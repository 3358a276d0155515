package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/tasks"
)

// transcriptLine is one line of a transcript: a message, the mark of a /clear, or the
// session's todos and tasks as they became.
type transcriptLine struct {
	Time    time.Time      `json:"time"`
	Message *agent.Message `json:"message,omitempty"`
	Clear   bool           `json:"clear,omitempty"`
	Board   *tasks.State   `json:"board,omitempty"`
}

// Transcript appends a conversation to an NDJSON stream as it grows, so that a chat can be
// read later or resumed (LoadTranscript).
type Transcript struct {
	w       io.Writer
	path    string // the file written, when OpenTranscript opened it
	written int    // messages of the history already written
	board   []byte // the JSON of the board last written
}

// Saved is what a transcript holds: the conversation it ends with, and the session's
// todos and tasks as they last were.
type Saved struct {
	History []agent.Message
	Board   tasks.State
}

// SyncBoard writes the session's todos and tasks when they changed since last written.
func (t *Transcript) SyncBoard(b *tasks.Board) error {
	if t == nil || b == nil {
		return nil
	}
	state := b.State()
	data, err := json.Marshal(state)
	if err != nil || bytes.Equal(data, t.board) {
		return err
	}
	if err := json.NewEncoder(t.w).Encode(transcriptLine{Time: time.Now().UTC(), Board: &state}); err != nil {
		return err
	}
	t.board = data
	return nil
}

// Path is the file the transcript is written to ("" for none, or a stream).
func (t *Transcript) Path() string {
	if t == nil {
		return ""
	}
	return t.path
}

// NewTranscript writes to w; written is the number of messages of the history that w
// already holds (those of a resumed conversation).
func NewTranscript(w io.Writer, written int) *Transcript { return &Transcript{w: w, written: written} }

// Sync writes the messages of history not written yet.
func (t *Transcript) Sync(history []agent.Message) error {
	if t == nil {
		return nil
	}
	enc := json.NewEncoder(t.w)
	for i := t.written; i < len(history); i++ {
		if err := enc.Encode(transcriptLine{Time: time.Now().UTC(), Message: &history[i]}); err != nil {
			return err
		}
		t.written = i + 1
	}
	return nil
}

// Clear records that the conversation was cleared.
func (t *Transcript) Clear() error {
	if t == nil {
		return nil
	}
	t.written = 0
	return json.NewEncoder(t.w).Encode(transcriptLine{Time: time.Now().UTC(), Clear: true})
}

// LoadTranscript reads a transcript back into the conversation it ends with.
func LoadTranscript(r io.Reader) ([]agent.Message, error) {
	saved, err := loadSaved(r)
	return saved.History, err
}

// loadSaved reads a transcript back into the conversation it ends with and the board as
// it last was. A last line cut short by a crash is ignored; a bad line before it is an
// error.
func loadSaved(r io.Reader) (Saved, error) {
	var saved Saved
	history := &saved.History
	var torn error // a bad line is only forgiven as the last one (cut by a crash)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		if torn != nil {
			return Saved{}, torn
		}
		var l transcriptLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			torn = fmt.Errorf("transcript line %d: %v", n, err)
			continue
		}
		switch {
		case l.Clear:
			*history = nil
		case l.Message != nil:
			*history = append(*history, *l.Message)
		case l.Board != nil:
			saved.Board = *l.Board
		}
	}
	if err := sc.Err(); err != nil {
		return Saved{}, err
	}
	return saved, nil
}

// OpenTranscript opens the file a chat saves its conversation to, and the conversation it
// resumes. resume is "" (a new conversation), "last" (the newest transcript in dir) or a
// transcript file; path is the file to write ("": the resumed one, or a new file in dir
// named by the time). A resumed conversation written to another file is written there
// whole. Files are created 0600 in 0700 directories: conversations hold code and secrets.
func OpenTranscript(dir, path, resume string) (*Transcript, Saved, func() error, error) {
	var saved Saved
	if resume != "" {
		from, err := FindTranscript(dir, resume, "")
		if err != nil {
			return nil, Saved{}, nil, err
		}
		saved, err = ReadTranscript(from)
		if err != nil {
			return nil, Saved{}, nil, err
		}
		if path == "" {
			path = from
		}
		resume = from
	}
	if path == "" {
		path = filepath.Join(dir, time.Now().UTC().Format("20060102T150405.000000000Z")+".ndjson")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, Saved{}, nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, Saved{}, nil, err
	}
	written := len(saved.History)
	if path != resume {
		written = 0 // a new file: it gets the resumed conversation too
	}
	tr := NewTranscript(f, written)
	tr.path = path
	if path == resume {
		tr.board, _ = json.Marshal(saved.Board) // already in the file
	}
	return tr, saved, f.Close, nil
}

// FindTranscript names the transcript to resume: resume is a file, or "last" for the
// newest transcript in dir other than the file skip (the chat's own).
func FindTranscript(dir, resume, skip string) (string, error) {
	if resume != "last" {
		return resume, nil
	}
	if dir == "" {
		return "", errors.New("this chat keeps no saved conversations: name a transcript file")
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	for i := len(names) - 1; i >= 0; i-- { // names sort by time
		if skip == "" || !sameFile(names[i], skip) {
			return names[i], nil
		}
	}
	return "", fmt.Errorf("no saved conversation for this project in %s", dir)
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(fa, fb)
}

// ReadTranscript reads a transcript file back (see loadSaved).
func ReadTranscript(path string) (Saved, error) {
	f, err := os.Open(path)
	if err != nil {
		return Saved{}, err
	}
	defer f.Close()
	saved, err := loadSaved(f)
	if err != nil {
		return Saved{}, fmt.Errorf("%s: %w", path, err)
	}
	return saved, nil
}

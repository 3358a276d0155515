package security

import (
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionEqual(t *testing.T) {
	now := time.Now()
	base := Version{Dev: 1, Ino: 2, Size: 3, ModTime: now, Mode: 0o644}
	tests := []struct {
		name   string
		change func(v *Version)
		equal  bool
	}{
		{name: "same", change: func(*Version) {}, equal: true},
		{name: "same instant, other location", change: func(v *Version) { v.ModTime = now.UTC() }, equal: true},
		{name: "device", change: func(v *Version) { v.Dev++ }},
		{name: "inode", change: func(v *Version) { v.Ino++ }},
		{name: "size", change: func(v *Version) { v.Size++ }},
		{name: "mtime by a nanosecond", change: func(v *Version) { v.ModTime = now.Add(time.Nanosecond) }},
		{name: "mode", change: func(v *Version) { v.Mode = 0o600 }},
		{name: "type", change: func(v *Version) { v.Mode |= fs.ModeSymlink }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			other := base
			tc.change(&other)
			assert.Equal(t, tc.equal, base.Equal(other))
			assert.Equal(t, tc.equal, other.Equal(base))
		})
	}
}

// TestReadAtMost checks the read cap that catches files growing after their fstat.
func TestReadAtMost(t *testing.T) {
	data, err := readAtMost(strings.NewReader(strings.Repeat("x", 100)), make([]byte, 0, 4), 11)
	require.NoError(t, err)
	assert.Len(t, data, 11)
}

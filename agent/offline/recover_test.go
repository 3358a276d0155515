package offline

import (
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/stretchr/testify/assert"
)

func TestCaseless(t *testing.T) {
	cases := []struct{ name, glob string }{
		{"readme", "[rR][eE][aA][dD][mM][eE]"},
		{"Main.GO", "[mM][aA][iI][nN].[gG][oO]"},
		{"a[1]*{x}?.go", `[aA]\[1\]\*\{[xX]\}\?.[gG][oO]`},
		{"ünï_2", "[üÜ][nN][ïÏ]_2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.glob, caseless(tc.name))
			ok, err := doublestar.Match(caseless(tc.name), tc.name)
			assert.NoError(t, err)
			assert.True(t, ok, "the glob matches the name itself")
		})
	}
}

package strutil

import "testing"

func TestShout(t *testing.T) {
	for _, tc := range []struct{ in, want string }{{"a", "A"}, {"b", "b"}} {
		t.Run(tc.in, func(t *testing.T) {
			if got := Shout(tc.in); got != tc.want {
				t.Errorf("Shout(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

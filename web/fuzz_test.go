package web

import (
	"net/netip"
	"testing"
)

// FuzzClassifyAddr holds the address rules to the standard library's own predicates: an
// address the rules let through is none of loopback, private, link-local, multicast or
// unspecified, and an IPv4-mapped address is judged as the IPv4 address inside it.
func FuzzClassifyAddr(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "::ffff:10.0.0.1", "169.254.169.254", "fd00:ec2::254", "8.8.8.8", "2606:4700::1111", "64:ff9b::7f00:1", "2002:7f00:1::", "ff02::1", "::"} {
		a := netip.MustParseAddr(s).As16()
		f.Add(a[:])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 16 {
			return
		}
		addr := netip.AddrFrom16([16]byte(b))
		why := classifyAddr(addr)
		u := addr.Unmap()
		if why == "" && (u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsMulticast() || u.IsUnspecified()) {
			t.Fatalf("%s is let through but the standard library calls it non-public", addr)
		}
		if addr.Is4In6() && why != classifyAddr(u) {
			t.Fatalf("%s is judged %q, its IPv4 address %s %q", addr, why, u, classifyAddr(u))
		}
	})
}

// FuzzCheckURL: whatever the text, checkURL does not panic, and a URL it accepts is http
// or https with a host and no credentials.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://go.dev/doc", "http://user:pw@x/", "ftp://x/", "http://[::1]:80/", "http://0x7f.1/", "HTTP://EXAMPLE.COM", "//x", "http:///x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := checkURL(raw)
		if err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" || u.User != nil {
			t.Fatalf("checkURL accepted %q: scheme %q host %q user %v", raw, u.Scheme, u.Hostname(), u.User)
		}
	})
}

package web

import "net/netip"

// refusedRange is a block of addresses that web_fetch does not connect to by default,
// and the word that says why in the refusal.
type refusedRange struct {
	prefix netip.Prefix
	why    string
}

// refusedRanges lists the special-purpose blocks (RFC 6890 and its successors) that lead
// into the host, its network or a cloud's metadata service rather than to the public
// internet. Narrower blocks come before the wider ones that contain them, so that the
// first match gives the most precise reason.
var refusedRanges = func() []refusedRange {
	table := []struct{ cidr, why string }{
		{"0.0.0.0/8", "unspecified"},
		{"127.0.0.0/8", "loopback"},
		{"10.0.0.0/8", "private"},
		{"172.16.0.0/12", "private"},
		{"192.168.0.0/16", "private"},
		{"100.64.0.0/10", "carrier-grade NAT"},
		{"169.254.0.0/16", "link-local"},
		{"192.0.0.0/24", "IETF protocol assignment"},
		{"192.0.2.0/24", "documentation"},
		{"198.51.100.0/24", "documentation"},
		{"203.0.113.0/24", "documentation"},
		{"198.18.0.0/15", "benchmarking"},
		{"224.0.0.0/4", "multicast"},
		{"255.255.255.255/32", "broadcast"},
		{"240.0.0.0/4", "reserved"},
		{"::/128", "unspecified"},
		{"::1/128", "loopback"},
		{"fc00::/7", "private"},
		{"fe80::/10", "link-local"},
		{"fec0::/10", "site-local"},
		{"ff00::/8", "multicast"},
		{"2001::/32", "Teredo tunnel"},
		{"2001:db8::/32", "documentation"},
		// Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the
		// operator's prefix length, and it never leads to the public internet anyway.
		{"64:ff9b:1::/48", "local-use NAT64"},
	}
	out := make([]refusedRange, len(table))
	for i, r := range table {
		out[i] = refusedRange{netip.MustParsePrefix(r.cidr), r.why}
	}
	return out
}()

// embeddingRanges are IPv6 blocks that carry an IPv4 address (at byte offset at) which a
// translator or tunnel connects to: such an address is as dangerous as the IPv4 one.
var embeddingRanges = []struct {
	prefix netip.Prefix
	at     int
	name   string
}{
	{netip.MustParsePrefix("64:ff9b::/96"), 12, "NAT64"},
	{netip.MustParsePrefix("2002::/16"), 2, "6to4"},
	{netip.MustParsePrefix("::/96"), 12, "IPv4-compatible"},
}

// classifyAddr says why web_fetch refuses to connect to addr by default ("loopback",
// "private", …), or returns "" for a public address. IPv4-mapped addresses and zones are
// normalised first; an IPv4 address embedded in a NAT64, 6to4 or IPv4-compatible IPv6
// address is judged as the IPv4 address it leads to.
func classifyAddr(addr netip.Addr) string {
	if !addr.IsValid() {
		return "invalid"
	}
	addr = addr.Unmap().WithZone("")
	for _, r := range refusedRanges {
		if r.prefix.Contains(addr) {
			return r.why
		}
	}
	for _, e := range embeddingRanges {
		if !e.prefix.Contains(addr) {
			continue
		}
		b := addr.As16()
		v4 := netip.AddrFrom4([4]byte(b[e.at : e.at+4]))
		if why := classifyAddr(v4); why != "" {
			return why + " (embedded IPv4 " + v4.String() + ", " + e.name + ")"
		}
	}
	return ""
}

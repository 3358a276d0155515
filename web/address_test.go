package web

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassifyAddr(t *testing.T) {
	cases := []struct {
		addr, why string
	}{
		// Public addresses pass.
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"93.184.215.14", ""},
		{"2606:4700::1111", ""},
		{"2a00:1450:4001:82a::200e", ""},
		{"64:ff9b::808:808", ""},     // NAT64 of 8.8.8.8
		{"2002:808:808::1", ""},      // 6to4 of 8.8.8.8
		{"::ffff:8.8.8.8", ""},       // IPv4-mapped public
		{"172.32.0.1", ""},           // just past 172.16/12
		{"100.128.0.1", ""},          // just past 100.64/10
		{"198.20.0.1", ""},           // just past 198.18/15
		{"11.0.0.1", ""},             // just past 10/8
		{"192.0.1.1", ""},            // just past 192.0.0/24
		{"223.255.255.255", ""},      // just before multicast
		{"2001:4860:4860::8888", ""}, // Google DNS, not Teredo (2001:0::/32)
		// IPv4 special ranges.
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"127.0.0.1", "loopback"},
		{"127.255.255.254", "loopback"},
		{"10.0.0.1", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"100.127.255.255", "carrier-grade NAT"},
		{"169.254.169.254", "link-local"},
		{"169.254.0.1", "link-local"},
		{"192.0.0.8", "IETF protocol assignment"},
		{"192.0.2.1", "documentation"},
		{"198.18.0.1", "benchmarking"},
		{"198.19.255.255", "benchmarking"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"240.0.0.1", "reserved"},
		{"255.255.255.255", "broadcast"},
		// IPv6 special ranges.
		{"::", "unspecified"},
		{"::1", "loopback"},
		{"fc00::1", "private"},
		{"fd00:ec2::254", "private"}, // AWS IPv6 metadata
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"ff02::1", "multicast"},
		{"2001::1", "Teredo tunnel"},
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo tunnel"},
		{"2001:db8::1", "documentation"},
		{"64:ff9b:1::a00:1", "local-use NAT64"},
		// IPv4 inside IPv6.
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:169.254.169.254", "link-local"},
		{"::ffff:10.1.2.3", "private"},
		{"::127.0.0.1", "loopback (embedded IPv4 127.0.0.1, IPv4-compatible)"},
		{"::10.0.0.1", "private (embedded IPv4 10.0.0.1, IPv4-compatible)"},
		{"64:ff9b::7f00:1", "loopback (embedded IPv4 127.0.0.1, NAT64)"},
		{"64:ff9b::a9fe:a9fe", "link-local (embedded IPv4 169.254.169.254, NAT64)"},
		{"2002:7f00:1::1", "loopback (embedded IPv4 127.0.0.1, 6to4)"},
		{"2002:c0a8:101::1", "private (embedded IPv4 192.168.1.1, 6to4)"},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			assert.Equal(t, c.why, classifyAddr(netip.MustParseAddr(c.addr)))
		})
	}
	assert.Equal(t, "invalid", classifyAddr(netip.Addr{}))
}

func TestDialPolicyRefusal(t *testing.T) {
	p := &dialPolicy{allowNets: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}}
	assert.Empty(t, p.refusal(netip.MustParseAddr("127.0.0.1")))
	assert.Empty(t, p.refusal(netip.MustParseAddr("::1")))
	assert.Equal(t, "private", p.refusal(netip.MustParseAddr("10.0.0.1")))
	assert.Equal(t, "link-local", p.refusal(netip.MustParseAddr("169.254.169.254")))
}

func TestHostAllowed(t *testing.T) {
	p := &dialPolicy{allowHosts: []string{"docs.corp", "*.intra.example"}}
	cases := []struct {
		host string
		want bool
	}{
		{"docs.corp", true},
		{"DOCS.corp.", true},
		{"x.docs.corp", false},
		{"a.intra.example", true},
		{"a.b.intra.example", true},
		{"intra.example", false},
		{"evilintra.example", false},
		{"127.0.0.1", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, p.hostAllowed(c.host), c.host)
	}
}

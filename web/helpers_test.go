package web

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/dns/dnsmessage"
)

// loopbackNets allows the test servers, which listen on loopback.
var loopbackNets = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// countingServer starts a loopback server running h and returns it with the number of
// requests it has had.
func countingServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// serve answers every request with body as contentType ("": no Content-Type header).
func serve(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		} else {
			w.Header()["Content-Type"] = nil // keep net/http from sniffing one
		}
		_, _ = w.Write([]byte(body))
	}
}

// fakeResolver returns a resolver that asks a DNS server on loopback knowing only names
// (name -> IPv4 address); other names do not exist. It lets a test make any name resolve
// to loopback without the system's DNS.
func fakeResolver(t *testing.T, names map[string]string) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if out, ok := dnsAnswer(buf[:n], names); ok {
				_, _ = pc.WriteTo(out, from)
			}
		}
	}()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

// dnsAnswer answers the DNS query in query from names: an A record for a known name, no
// record for its other types, NXDOMAIN for an unknown name.
func dnsAnswer(query []byte, names map[string]string) ([]byte, bool) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, false
	}
	q, err := p.Question()
	if err != nil {
		return nil, false
	}
	msg := dnsmessage.Message{
		Header:    dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true},
		Questions: []dnsmessage.Question{q},
	}
	addr, known := names[strings.TrimSuffix(strings.ToLower(q.Name.String()), ".")]
	switch {
	case !known:
		msg.RCode = dnsmessage.RCodeNameError
	case q.Type == dnsmessage.TypeA:
		msg.Answers = []dnsmessage.Resource{{
			Header: dnsmessage.ResourceHeader{Name: q.Name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET, TTL: 1},
			Body:   &dnsmessage.AResource{A: netip.MustParseAddr(addr).As4()},
		}}
	}
	out, err := msg.Pack()
	return out, err == nil
}

// requireToolError requires err to be a *definitions.ToolError of type typ and returns it.
func requireToolError(t *testing.T, err error, typ string) *definitions.ToolError {
	t.Helper()
	var te *definitions.ToolError
	require.ErrorAs(t, err, &te)
	require.Equal(t, typ, te.Type, "message: %s", te.Message)
	return te
}

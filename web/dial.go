package web

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"github.com/jido-run/jido/tools/definitions"
)

// dialPolicy decides which addresses web_fetch may connect to. It judges the address of
// each connection, after name resolution, and never the name: a name that resolves (or
// re-resolves, as in DNS rebinding) to a refused address is caught, and so is every hop of
// a redirect, because each one dials again.
type dialPolicy struct {
	allowNets  []netip.Prefix
	allowHosts []string // lower case, without a trailing dot; "*.x.y" matches any name under x.y
	resolver   *net.Resolver
}

// dialContext is the Transport's DialContext. Unless host is one of allowHosts, the
// dialer's Control func refuses a connection to a refused address before it is made.
func (p *dialPolicy) dialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Resolver: p.resolver}
	if !p.hostAllowed(host) {
		d.Control = func(_, ipPort string, _ syscall.RawConn) error { return p.check(host, ipPort) }
	}
	return d.DialContext(ctx, network, address)
}

// check returns a PermissionError when ipPort, the address about to be dialled for host,
// is refused.
func (p *dialPolicy) check(host, ipPort string) error {
	ap, err := netip.ParseAddrPort(ipPort)
	if err != nil {
		return definitions.NewError(definitions.PermissionError, "web_fetch refuses to connect to %s: unparsable address %q", host, ipPort)
	}
	addr := ap.Addr().Unmap().WithZone("")
	why := p.refusal(addr)
	if why == "" {
		return nil
	}
	return definitions.NewError(definitions.PermissionError,
		"web_fetch refuses to connect to %s at %s: %s address", host, addr, why).
		With("host", host).With("address", addr.String()).With("reason", why).
		Hint("only public internet addresses are fetched by default; if this host is meant to be reachable (an intranet docs server), the user can allow its name or network: jido --web-allow HOST|NET, or FetchConfig.AllowHosts and AllowNets in the Go API")
}

// refusal says why addr may not be dialled, or returns "" when it may.
func (p *dialPolicy) refusal(addr netip.Addr) string {
	for _, n := range p.allowNets {
		if n.Contains(addr) {
			return ""
		}
	}
	return classifyAddr(addr)
}

// hostAllowed reports whether connections for host may reach any address.
func (p *dialPolicy) hostAllowed(host string) bool {
	host = normalizeHost(host)
	for _, pattern := range p.allowHosts {
		if parent, wild := strings.CutPrefix(pattern, "*."); wild {
			if strings.HasSuffix(host, "."+parent) {
				return true
			}
		} else if host == pattern {
			return true
		}
	}
	return false
}

// normalizeHost lower-cases a host name and drops a trailing dot, so that "Docs.Corp."
// and "docs.corp" match the same AllowHosts entry.
func normalizeHost(host string) string {
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

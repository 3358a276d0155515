package web

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/url"
	"syscall"
	"time"

	"github.com/jido-run/jido/tools/definitions"
)

// requestError turns the failure of an HTTP request to host into a ToolError: a ToolError
// already in the chain (a refused address, a bad redirect) as it is, the caller's own
// cancellation as the context's error, a deadline as a TimeoutError naming limit, and
// everything else as a NetworkError saying what went wrong.
func requestError(parent context.Context, err error, host string, limit time.Duration, timeoutHint string) error {
	var te *definitions.ToolError
	if errors.As(err, &te) {
		return te
	}
	if parent.Err() != nil {
		return parent.Err()
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return definitions.NewError(definitions.TimeoutError, "%s did not answer within %s", host, limit).
			With("host", host).With("timeout", limit.String()).Hint(timeoutHint)
	}
	return networkError(err, host)
}

// networkError is the NetworkError of a request to host that failed with err.
func networkError(err error, host string) *definitions.ToolError {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its message repeats the whole URL
	}
	var (
		dnsErr   *net.DNSError
		certErr  *tls.CertificateVerificationError
		authErr  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		alertErr tls.AlertError
		recErr   tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &dnsErr):
		return definitions.NewError(definitions.NetworkError, "cannot resolve host %s: %s", host, dnsErr.Err).
			With("host", host).Hint("check the host name")
	case errors.As(err, &certErr), errors.As(err, &authErr), errors.As(err, &hostErr),
		errors.As(err, &alertErr), errors.As(err, &recErr):
		return definitions.NewError(definitions.NetworkError, "TLS with %s failed: %v", host, err).
			With("host", host).Hint("the site's certificate or TLS setup is broken, so it cannot be fetched safely")
	case errors.Is(err, syscall.ECONNREFUSED):
		return definitions.NewError(definitions.NetworkError, "connection to %s refused", host).
			With("host", host).Hint("check the port, or try again later")
	}
	return definitions.NewError(definitions.NetworkError, "request to %s failed: %v", host, err).With("host", host)
}

package main

import (
	"cmp"
	"context"
	"fmt"
	"net/netip"
	"os"
	"strings"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/web"
	"github.com/jido-run/jido/web/grounding"
)

// webConfig is the sessions' web access as the flags and the environment say: web_fetch
// under the default address rules plus --web-allow's hosts and networks, and web_search
// through the first provider configured: a SearXNG at --search-url, Exa with EXA_API_KEY
// (EXA_BASE_URL moves it), Gemini's Google Search grounding with GEMINI_API_KEY (or
// GOOGLE_API_KEY); with none, web_search says which setting to give.
func (f *sessionFlags) webConfig(ctx context.Context) (*manager.WebConfig, error) {
	cfg := &manager.WebConfig{}
	for _, a := range f.webAllow {
		switch {
		case strings.Contains(a, "/"):
			p, err := netip.ParsePrefix(a)
			if err != nil {
				return nil, fmt.Errorf("--web-allow %s: %v", a, err)
			}
			cfg.Fetch.AllowNets = append(cfg.Fetch.AllowNets, p.Masked())
		default:
			if addr, err := netip.ParseAddr(strings.Trim(a, "[]")); err == nil {
				cfg.Fetch.AllowNets = append(cfg.Fetch.AllowNets, netip.PrefixFrom(addr, addr.BitLen()))
				continue
			}
			if a == "" || strings.ContainsAny(a, ":/ ") {
				return nil, fmt.Errorf("--web-allow %q: want a host name (docs.corp, *.corp), an address or a network (10.1.0.0/16)", a)
			}
			cfg.Fetch.AllowHosts = append(cfg.Fetch.AllowHosts, a)
		}
	}
	switch key := cmp.Or(os.Getenv("GEMINI_API_KEY"), os.Getenv("GOOGLE_API_KEY")); {
	case f.searchURL != "":
		cfg.Search = web.NewSearXNG(web.SearXNGConfig{BaseURL: f.searchURL})
	case os.Getenv("EXA_API_KEY") != "":
		cfg.Search = web.NewExa(web.ExaConfig{APIKey: os.Getenv("EXA_API_KEY"), BaseURL: os.Getenv("EXA_BASE_URL")})
	case key != "":
		s, err := grounding.New(ctx, grounding.Config{APIKey: key})
		if err != nil {
			return nil, fmt.Errorf("web search through Gemini: %w", err)
		}
		cfg.Search = s
	}
	return cfg, nil
}

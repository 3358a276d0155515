// Package web holds the web tools of jido: web_fetch (Fetcher: one URL, converted to
// Markdown or text, with SSRF protection that checks every connection's address) and
// web_search (the Searcher interface and its Exa and SearXNG providers; Gemini grounding
// lives in web/grounding so that this package does not link the genai SDK).
//
// Every error a caller should show to the model is a *definitions.ToolError.
package web

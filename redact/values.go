package redact

import (
	"bufio"
	"bytes"
	"slices"
)

// minValue is the shortest secret-file value redacted literally: shorter ones (ports,
// "true", "dev") would blank out ordinary text everywhere.
const minValue = 8

// ValuesFromSecretFile returns the values a secret file assigns (dotenv KEY=VALUE, with
// or without export and quotes; YAML-like key: value), those worth redacting wherever they
// appear: at least minValue bytes, no white space, not a placeholder.
func ValuesFromSecretFile(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = bytes.TrimPrefix(line, []byte("export "))
		i := bytes.IndexAny(line, "=:")
		if i <= 0 {
			continue
		}
		v := bytes.TrimSpace(line[i+1:])
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		if len(v) < minValue || len(v) > maxValue || bytes.ContainsAny(v, " \t") || isPlaceholder(v) {
			continue
		}
		if s := string(v); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// WithValues returns a Redactor that also replaces each of values, byte for byte, wherever
// it appears ("[REDACTED:project-secret]"), ahead of every other rule: the values a
// project's secret files hold, which no pattern may recognise (a short password, an
// internal token format). r itself is not changed.
func (r *Redactor) WithValues(values []string) *Redactor {
	var kws []string
	for _, v := range values {
		if len(v) >= minValue {
			kws = append(kws, v)
		}
	}
	if len(kws) == 0 {
		return r
	}
	exact := &Rule{Name: "project-secret", keywords: kws, caseSensitive: true, find: func(_ []byte, start, end int) (int, int, bool) {
		return start, end, true
	}}
	return newRedactor(append([]*Rule{exact}, r.rules...))
}

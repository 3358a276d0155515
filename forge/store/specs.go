package store

import "github.com/jido-run/jido/security"

// CreateSpec writes a spec document to specs/<filename> (replacing an earlier version)
// and returns that root-relative path.
func (r *Run) CreateSpec(filename, content string) (string, error) {
	if err := checkName("filename", filename); err != nil {
		return "", err
	}
	rel := r.path("specs", filename)
	canonical, _, err := r.root.WriteFile(rel, []byte(content), security.WriteOptions{})
	if err != nil {
		return "", ioError(err, "spec "+filename, rel, "")
	}
	return canonical, nil
}

// ReadSpec returns the spec document specs/<filename>.
func (r *Run) ReadSpec(filename string) (string, error) {
	if err := checkName("filename", filename); err != nil {
		return "", err
	}
	rel := r.path("specs", filename)
	f, err := r.root.ReadFile(rel)
	if err != nil {
		return "", ioError(err, "spec "+filename, rel, "create it with create_spec")
	}
	return string(f.Data), nil
}

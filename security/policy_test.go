package security

import (
	"fmt"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultPolicy(t *testing.T) {
	tr := newTree(t, Options{})
	tests := []struct {
		path              string
		secret, protected bool
	}{
		{path: ".env", secret: true},
		{path: ".ENV", secret: true},
		{path: ".env.local", secret: true},
		{path: "app/config/.env.production", secret: true},
		{path: ".envrc", secret: true, protected: true},
		{path: "sub/.envrc", secret: true, protected: true},
		{path: ".env.example"},
		{path: ".env.sample"},
		{path: ".env.template"},
		{path: ".ENV.EXAMPLE"},
		{path: "certs/server.pem", secret: true},
		{path: "tls.KEY", secret: true},
		{path: "store.p12", secret: true},
		{path: "store.pfx", secret: true},
		{path: "id_rsa", secret: true},
		{path: "home/id_rsa_old", secret: true},
		{path: "id_dsa", secret: true},
		{path: "id_ecdsa", secret: true},
		{path: "id_ed25519", secret: true},
		{path: "id_ed25519.pub"},
		{path: "id_rsa.pub"},
		{path: ".netrc", secret: true},
		{path: "web/.npmrc", secret: true},
		{path: ".pypirc", secret: true},
		{path: ".git-credentials", secret: true},
		{path: "credentials", secret: true},
		{path: "gcp/credentials.json", secret: true},
		{path: "terraform.tfstate", secret: true},
		{path: "infra/terraform.tfstate.backup", secret: true},
		{path: ".ssh/config", secret: true},
		{path: "home/.ssh/known_hosts", secret: true},
		{path: ".aws/config", secret: true},
		{path: ".gnupg/pubring.kbx", secret: true},
		{path: "x/.kube/config", secret: true},
		{path: ".docker/config.json", secret: true},
		{path: ".git", protected: true},
		{path: ".git/config", protected: true},
		{path: ".git/hooks/pre-commit", protected: true},
		{path: "vendor/lib/.git/HEAD", protected: true},
		{path: ".GIT/HEAD", protected: true},
		{path: ".jido", protected: true},
		{path: ".jido/config.toml", protected: true},
		{path: ".jido/tools/evil.lua", protected: true},
		{path: ".jido/quarantine/run-1/x", protected: true},
		{path: ".jido/output"},
		{path: ".jido/output/run-1-ab.stdout.log"},
		{path: "sub/.jido/output/x", protected: true},
		{path: ".vscode", protected: true},
		{path: ".vscode/tasks.json", protected: true},
		{path: "web/.vscode/settings.json", protected: true},
		{path: "sub/.vscode/settings.json", protected: true},
		{path: ".VSCode/launch.json", protected: true},
		{path: ".idea", protected: true},
		{path: ".idea/workspace.xml", protected: true},
		{path: "modules/app/.idea/runConfigurations/x.xml", protected: true},
		{path: "a/.envrc", secret: true, protected: true},
		{path: ".bashrc", protected: true},
		{path: ".bash_profile", protected: true},
		{path: ".bash_login", protected: true},
		{path: ".bash_logout", protected: true},
		{path: ".profile", protected: true},
		{path: ".zshrc", protected: true},
		{path: ".zshenv", protected: true},
		{path: ".zprofile", protected: true},
		{path: ".zlogin", protected: true},
		{path: ".zlogout", protected: true},
		{path: ".inputrc", protected: true},
		{path: "home/.zshenv", protected: true},
		{path: "dotfiles/bash/.bashrc", protected: true},
		{path: "x/.ZSHRC", protected: true},
		{path: "home/user/.profile", protected: true},
		{path: ".envrc.example"},
		{path: "envrc"},
		{path: ".envrc.d/x"},
		{path: "src/jido/x.go"},
		{path: "jido/config.toml"},
		{path: ".jidoignore"},
		{path: "vscode/x"},
		{path: ".vscode-test/x"},
		{path: "idea/x"},
		{path: ".bashrc.d/x"},
		{path: "bashrc"},
		{path: ".zshrc.local"},
		{path: "profile"},
		{path: ".profile.d/x"},
		{path: "main.go"},
		{path: "."},
		{path: "environment.go"},
		{path: "docs/env.md"},
		{path: "keys.go"},
		{path: ".gitignore"},
		{path: ".github/workflows/ci.yml"},
		{path: "my.git/x"},
		{path: "sshd/config"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			assert.Equal(t, tc.secret, tr.r.IsSecret(tc.path), "IsSecret")
			assert.Equal(t, tc.protected, tr.r.IsProtected(tc.path), "IsProtected")
		})
	}
}

func TestCustomPolicy(t *testing.T) {
	tr := newTree(t, Options{Policy: &Policy{
		Secret:           []string{"secrets/*"},
		SecretExceptions: []string{"secrets/README*"},
		Protected:        []string{"sub"},
	}})
	assert.True(t, tr.r.IsSecret("SECRETS/db.txt"))
	assert.False(t, tr.r.IsSecret("secrets/readme.md"))
	assert.False(t, tr.r.IsSecret(".env"), "the default policy is replaced")
	assert.True(t, tr.r.IsProtected("sub/deep/c.txt"), "children of a protected path are protected")
	assert.False(t, tr.r.IsProtected(".git/config"))

	_, _, err := tr.r.WriteFile("link_dir/new.txt", []byte("x"), WriteOptions{})
	assertErr(t, err, ErrProtected)
	f, err := tr.r.ReadFile(".env")
	require.NoError(t, err)
	assert.Equal(t, "TOKEN=inside-secret", string(f.Data))
}

func TestPolicyCopy(t *testing.T) {
	tr := newTree(t, Options{})
	p := tr.r.Policy()
	require.NotEmpty(t, p.Secret)
	p.Secret[0] = "changed"
	p.Protected = nil
	assert.Equal(t, DefaultPolicy(), tr.r.Policy())
	assert.True(t, tr.r.IsProtected(".git/config"))
}

func TestOpenInvalidPolicy(t *testing.T) {
	_, err := Open(t.TempDir(), Options{Policy: &Policy{Secret: []string{"[unclosed"}}})
	assert.Error(t, err)
}

func TestDefaultProtected(t *testing.T) {
	names := []string{".git", ".jido", ".vscode", ".idea", ".envrc", ".bashrc", ".bash_profile", ".bash_login",
		".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".inputrc"}
	got := DefaultProtected()
	for _, name := range names {
		assert.Contains(t, got, "**/"+name, "every name is protected at any depth")
	}
	for _, p := range got {
		assert.True(t, strings.HasPrefix(p, "**/"), "%s: at any depth", p)
	}
	got[0] = "changed"
	assert.Equal(t, "**/.git", DefaultProtected()[0], "a fresh slice each call")
	assert.Equal(t, DefaultProtected(), DefaultPolicy().Protected, "one source of truth")
}

// protectedNames are a file under every default protected name, at the root and nested.
var protectedNames = []string{
	".git/config", ".jido/config.toml", ".jido/tools/x.lua", ".vscode/settings.json", ".idea/workspace.xml",
	".envrc", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
	".zprofile", ".zlogin", ".zlogout", ".inputrc",
	"sub/.vscode/settings.json", "a/.envrc", "sub/deep/.jido/config.toml", "sub/.zshrc", "sub/.idea/x.xml",
}

// TestProtectedRefusesEveryChange checks every Root method that modifies the tree on each
// protected name, existing and absent: it fails with ErrProtected (ErrSecret for .envrc,
// which is secret too) and the tree is unchanged. Reading stays allowed.
func TestProtectedRefusesEveryChange(t *testing.T) {
	type op struct {
		name     string
		existing bool // only when the file exists
		nested   bool // only when the file is not at the root
		do       func(r *Root, p string, exists bool) error
	}
	ops := []op{
		{name: "write", do: func(r *Root, p string, _ bool) error {
			_, _, err := r.WriteFile(p, []byte("x"), WriteOptions{})
			return err
		}},
		{name: "write new", do: func(r *Root, p string, _ bool) error {
			_, _, err := r.WriteFile(p, []byte("x"), WriteOptions{MustNotExist: true})
			return err
		}},
		{name: "create log", do: func(r *Root, p string, _ bool) error {
			f, _, err := r.CreateLog(p)
			if f != nil {
				f.Close()
			}
			return err
		}},
		{name: "mkdir", do: func(r *Root, p string, _ bool) error { return r.MkdirAll(p) }},
		{name: "rename in", do: func(r *Root, p string, exists bool) error { return r.Rename("a.txt", p, exists) }},
		{name: "rename dir in", do: func(r *Root, p string, _ bool) error { return r.Rename("sub/deep", p, false) }},
		{name: "remove", existing: true, do: func(r *Root, p string, _ bool) error { return r.Remove(p, false) }},
		{name: "remove empty dir", existing: true, do: func(r *Root, p string, _ bool) error { return r.RemoveEmptyDir(p) }},
		{name: "rename out", existing: true, do: func(r *Root, p string, _ bool) error { return r.Rename(p, "moved.txt", false) }},
		{name: "remove parent", existing: true, nested: true, do: func(r *Root, p string, _ bool) error { return r.Remove(path.Dir(p), true) }},
		{name: "rename parent", existing: true, nested: true, do: func(r *Root, p string, _ bool) error { return r.Rename(path.Dir(p), "moved", false) }},
	}
	for _, name := range protectedNames {
		for _, exists := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/exists=%v", name, exists), func(t *testing.T) {
				tr := newTree(t, Options{})
				if exists {
					writeFiles(t, tr.root, map[string]string{name: "original"})
				}
				want := ErrProtected
				if tr.r.IsSecret(name) {
					want = ErrSecret
				}
				for _, o := range ops {
					if o.existing && !exists || o.nested && path.Dir(name) == "." {
						continue
					}
					before := snapshot(t, tr.root)
					if o.name == "mkdir" {
						assertErr(t, o.do(tr.r, name, exists), ErrProtected) // MkdirAll checks protection only
					} else {
						assertErr(t, o.do(tr.r, name, exists), want)
					}
					assert.Equal(t, before, snapshot(t, tr.root), "%s %s changed the tree", o.name, name)
				}
				if exists && want == ErrProtected {
					f, err := tr.r.ReadFile(name)
					require.NoError(t, err, "protected files stay readable")
					assert.Equal(t, "original", string(f.Data))
					_, err = tr.r.ReadDir(path.Dir(name))
					assert.NoError(t, err, "and listable")
				}
			})
		}
	}
}

// TestRenameDirectoryChecksTree checks that moving a directory is refused when anything
// under it is protected or secret, where it is or where it would land, as removing it is.
func TestRenameDirectoryChecksTree(t *testing.T) {
	tests := []struct {
		name, from, to string
		files          []string
		protected      []string // added to the default protected patterns
		err            error
	}{
		{name: "holds a repository", from: "vendor", to: "vendor2", files: []string{"vendor/lib/.git/config"}, err: ErrProtected},
		{name: "holds editor settings", from: "web", to: "web2", files: []string{"web/.vscode/tasks.json"}, err: ErrProtected},
		{name: "holds an rc file", from: "home", to: "home2", files: []string{"home/.bashrc"}, err: ErrProtected},
		{name: "holds a secret", from: "app", to: "app2", files: []string{"app/.env.production"}, err: ErrSecret},
		{name: "lands on a config glob", from: "stage", to: "deploy", files: []string{"stage/prod.yml"}, protected: []string{"deploy/*.yml"}, err: ErrProtected},
		{name: "lands on a nested config glob", from: "stage", to: "ops", files: []string{"stage/x/Makefile"}, protected: []string{"**/x/Makefile"}, err: ErrProtected},
		{name: "leaves a config glob", from: "deploy", to: "stage", files: []string{"deploy/prod.yml"}, protected: []string{"deploy/*.yml"}, err: ErrProtected},
		{name: "clean tree", from: "stage", to: "deploy", files: []string{"stage/prod.txt"}, protected: []string{"deploy/*.yml"}},
		{name: "example file", from: "app", to: "app2", files: []string{"app/.env.example", "app/.envrc.example"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pol := DefaultPolicy()
			pol.Protected = append(pol.Protected, tc.protected...)
			tr := newTree(t, Options{Policy: &pol})
			files := map[string]string{}
			for _, f := range tc.files {
				files[f] = "x"
			}
			writeFiles(t, tr.root, files)
			before := snapshot(t, tr.root)
			err := tr.r.Rename(tc.from, tc.to, false)
			assertErr(t, err, tc.err)
			if tc.err != nil {
				assert.Equal(t, before, snapshot(t, tr.root), "a refused move changes nothing")
				return
			}
			_, err = os.Lstat(tr.host(tc.to))
			assert.NoError(t, err)
		})
	}
}

func TestCheckWrite(t *testing.T) {
	tests := []struct {
		name, in, canonical string
		err                 error
	}{
		{name: "file", in: "a.txt", canonical: "a.txt"},
		{name: "new with missing parents", in: "x/y/z.txt", canonical: "x/y/z.txt"},
		{name: "through dir link", in: "link_dir/new.txt", canonical: "sub/new.txt"},
		{name: "protected", in: ".git/config", err: ErrProtected},
		{name: "protected new with missing parents", in: "web/.vscode/tasks.json", err: ErrProtected},
		{name: "protected rc file", in: "sub/.bashrc", err: ErrProtected},
		{name: "protected jido tool", in: ".jido/tools/x.lua", err: ErrProtected},
		{name: "jido's output", in: ".jido/output/x.log", canonical: ".jido/output/x.log"},
		{name: "secret", in: "innocent.txt", err: ErrSecret},
		{name: "outside", in: "link_outdir/x", err: ErrOutsideRoot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t, Options{})
			before := snapshot(t, tr.root)
			canonical, err := tr.r.CheckWrite(tc.in)
			assertErr(t, err, tc.err)
			if tc.err == nil {
				assert.Equal(t, tc.canonical, canonical)
			}
			assert.Equal(t, before, snapshot(t, tr.root), "CheckWrite changes nothing")
		})
	}
}

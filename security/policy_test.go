package security

import (
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
		{path: ".idea/workspace.xml", protected: true},
		{path: ".bashrc", protected: true},
		{path: ".bash_profile", protected: true},
		{path: ".profile", protected: true},
		{path: ".zshrc", protected: true},
		{path: "home/.zshenv", protected: true},
		{path: ".inputrc", protected: true},
		{path: "src/jido/x.go"},
		{path: "vscode/x"},
		{path: ".bashrc.d/x"},
		{path: "profile"},
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

package policy

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelTable reads [model]: the user's, under a trusted project's field by field; a
// project naming another provider replaces the user's table whole; an untrusted
// project's is ignored and listed.
func TestModelTable(t *testing.T) {
	dir := t.TempDir()
	user, proj, trust := filepath.Join(dir, "user.toml"), filepath.Join(dir, "p", "config.toml"), filepath.Join(dir, "trust")
	writeText(t, user, "[model]\nprovider = \"openai\"\nname = \"qwen2.5-coder:7b\"\nbase_url = \"http://localhost:11434/v1\"\napi_key_env = \"OLLAMA_KEY\"\n")
	e, err := LoadWithTrust(user, proj, trust)
	require.NoError(t, err)
	want := ModelConfig{Provider: "openai", Name: "qwen2.5-coder:7b", BaseURL: "http://localhost:11434/v1", APIKeyEnv: "OLLAMA_KEY"}
	assert.Equal(t, want, e.Model())
	assert.Equal(t, want, e.Fork(ModePlan).Model(), "a session's engine sees its parent's")

	writeText(t, proj, "model.name = \"llama3\"\n")
	e, err = LoadWithTrust(user, proj, trust)
	require.NoError(t, err)
	assert.Equal(t, want, e.Model(), "an untrusted project's [model] is ignored")
	assert.Equal(t, []string{proj + ": [model]"}, e.Ignored())

	require.NoError(t, e.Trust())
	e, err = LoadWithTrust(user, proj, trust)
	require.NoError(t, err)
	want.Name = "llama3"
	assert.Equal(t, want, e.Model(), "a trusted project's fields over the user's")

	writeText(t, proj, "[model]\nprovider = \"gemini\"\n")
	e, err = Load(user, proj)
	require.NoError(t, err)
	assert.Equal(t, ModelConfig{Provider: "gemini"}, e.Model(), "another provider: the user's name, URL and key variable do not apply")

	e, err = Load("", "")
	require.NoError(t, err)
	assert.Equal(t, ModelConfig{}, e.Model(), "no [model] anywhere")
}

func TestModelTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"unknown key", "[model]\nprovider = \"openai\"\napi_key = \"x\"\n", `:3:1: unknown key "model.api_key"`},
		{"OpenAI key", "[model]\napi_key_env = \"sk-proj-abcdefghijklmnop\"\n", ":2:1: [model] api_key_env: looks like an API key: api_key_env is the NAME of the environment variable"},
		{"Google key", "[model]\n\napi_key_env = \"AIzaSyA1234567890abcdefghijklmnopqrstu\"\n", ":3:1: [model] api_key_env: looks like an API key"},
		{"long random token", "[model]\napi_key_env = \"3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e\"\n", "looks like an API key"},
		{"not a name", "[model]\napi_key_env = \"$OPENAI_API_KEY\"\n", `[model] api_key_env: "$OPENAI_API_KEY" is not the name of an environment variable`},
		{"unknown provider", "[model]\nprovider = \"claude\"\n", `:2:1: [model] provider: unknown provider "claude" (want auto, gemini, openai, interpreter, offline)`},
		{"bad URL", "[model]\nbase_url = \"localhost:11434\"\n", `[model] base_url: "localhost:11434" is not an http or https URL`},
		{"password in URL", "[model]\nbase_url = \"https://me:secret@api.example/v1\"\n", "[model] base_url: has a user or password in it"},
		{"not a table", "model = \"gpt-4o\"\n", `wrong type for "model": want a table`},
		{"wrong type", "[model]\nname = 4\n", `wrong type for "model.name"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			writeText(t, path, tc.text)
			_, err := Load(path, "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), path)
		})
	}
	for _, ok := range []string{"OPENAI_API_KEY", "my_key", "GROQ_API_KEY_FOR_THE_EVALUATION_HARNESS"} {
		path := filepath.Join(t.TempDir(), "config.toml")
		writeText(t, path, "[model]\napi_key_env = \""+ok+"\"\n")
		_, err := Load(path, "")
		assert.NoError(t, err, ok)
	}
}

package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestValuesFromSecretFile(t *testing.T) {
	env := "# db\nDB_PASSWORD=hunter2xyz\nexport API_TOKEN='int-tok-0042'\nPORT=8080\nDEBUG=true\nEMPTY=\nURL: \"postgres://u:pw@h/db\"\nNAME=changeme\nSPACED=a b c d e f g h\n"
	assert.Equal(t, []string{"hunter2xyz", "int-tok-0042", "postgres://u:pw@h/db"}, ValuesFromSecretFile([]byte(env)))
}

func TestWithValues(t *testing.T) {
	r := Default().WithValues([]string{"hunter2xyz", "short"})
	out, counts := r.String("log: connecting with hunter2xyz to db; Hunter2XYZ is another word; short stays")
	assert.Equal(t, "log: connecting with [REDACTED:project-secret] to db; Hunter2XYZ is another word; short stays", out)
	assert.Equal(t, map[string]int{"project-secret": 1}, counts)
	assert.Same(t, Default(), Default().WithValues(nil), "nothing to add: the same redactor")
	out, _ = r.String("AKIA" + "Q3X7PL2M9RTB5VWN and hunter2xyz")
	assert.Contains(t, out, "[REDACTED:aws-access-key-id]", "the built-in rules still apply")
	assert.Contains(t, out, "[REDACTED:project-secret]")
}

package setupfail

import (
	"testing"

	_ "example.com/missing"
)

func TestSetup(t *testing.T) {}

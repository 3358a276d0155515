//go:build !linux

package security

import "os"

// openRootDir opens real as an os.Root (Linux also refuses a symbolic link on the way).
func openRootDir(real string) (*os.Root, error) { return os.OpenRoot(real) }

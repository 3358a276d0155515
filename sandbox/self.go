package sandbox

// SelfConfinement says what ConfineSelf applied: zero fields where the kernel lacks the
// mechanism.
type SelfConfinement struct {
	LandlockABI int  `json:"landlock_abi"` // the Landlock ABI enforced, 0 for none
	Seccomp     bool `json:"seccomp"`      // the syscall filter is on, on every thread
	NoNewPrivs  bool `json:"no_new_privs"` // on every thread
}

package shellclass

import "testing"

// benchLine is a typical agent pipeline of about 80 characters.
const benchLine = `git log --oneline -20 | grep -v Merge | awk '{print $1}' | sort -u > /tmp/commits`

func BenchmarkClassify(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if Classify(benchLine).Class != Mutating {
			b.Fatal("unexpected class")
		}
	}
}

func BenchmarkClassifyArgv(b *testing.B) {
	argv := []string{"git", "-C", "repo", "push", "--force-with-lease", "origin", "main"}
	b.ReportAllocs()
	for b.Loop() {
		if ClassifyArgv(argv).Class != Destructive {
			b.Fatal("unexpected class")
		}
	}
}

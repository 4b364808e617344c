package target

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgo: a target is data, so building one must need no C library.
// The solvers are cgo bindings; a path from here to one of them would
// make every importer of target (the registry, the API's target list)
// link libz3.
func TestNoCgo(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", ".")
	// With cgo off, go list reports no cgo files at all and the test
	// would pass whatever target imports.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		t.Errorf("target depends on %s, which uses cgo; move what needs it out of target's imports", pkg)
	}
}

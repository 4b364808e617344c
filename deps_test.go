package p4hls_test

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/p4hls/p4hls/"

// layers reads the layer of every package from docs/architecture.md's
// list (the lines between the "layers" markers, "layer N: pkg pkg ...").
func layers(t *testing.T) map[string]int {
	f, err := os.Open("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "<!-- layers"):
			in = true
		case strings.HasPrefix(line, "<!-- end layers"):
			in = false
		case in && strings.HasPrefix(line, "layer "):
			head, pkgs, _ := strings.Cut(strings.TrimPrefix(line, "layer "), ":")
			n, err := strconv.Atoi(head)
			if err != nil {
				t.Fatalf("docs/architecture.md: %q: %v", line, err)
			}
			for _, p := range strings.Fields(pkgs) {
				out[p] = n
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("docs/architecture.md lists no layers")
	}
	return out
}

// TestImportPolicy enforces docs/architecture.md's rule that imports flow
// down the layers: a package imports only packages of lower layers.
func TestImportPolicy(t *testing.T) {
	layer := layers(t)
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		if pkg+"/" == module {
			continue // this test's own package
		}
		pkg = strings.TrimPrefix(pkg, module)
		l, known := layer[pkg]
		if !known {
			t.Errorf("package %s is in no layer; add it to docs/architecture.md's list", pkg)
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			if li, ok := layer[imp]; ok && li >= l {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports flow down the layers", pkg, l, imp, li)
			}
		}
	}
}

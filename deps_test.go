package p4hls_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/p4hls/p4hls/"

// allowed lists, for each package of the module, the module packages it may
// import directly. It encodes DESIGN.md's rule that imports flow down the
// layout table; a new package must be added here, with its place.
var allowed = map[string][]string{
	"diag":                      {},
	"ir":                        {"diag"},
	"frontend/parser":           {},
	"frontend/cpp":              {"diag"},
	"frontend":                  {"diag", "ir", "frontend/cpp", "frontend/parser"},
	"interp":                    {"diag", "ir"},
	"solver/z3":                 {},
	"solver/milp":               {},
	"synth/grammar":             {"diag"},
	"synth/grammar/grammartest": {"solver/z3", "synth", "synth/grammar"},
	"target":                    {"synth/grammar"},
	"tofino":                    {"synth/grammar", "target"},
	"menshen":                   {"synth/grammar", "target"},
	"backends":                  {"alloc", "diag", "ir", "synth", "transform"},
	"tofino/tna":                {"backends", "diag", "ir", "synth", "synth/grammar", "transform"},
	"menshen/lower":             {"backends", "diag", "interp", "ir", "menshen", "synth", "synth/grammar", "transform"},
	"backends/banzai":           {"synth/grammar", "target"},
	"transform":                 {"diag", "ir", "solver/z3"},
	"synth":                     {"diag", "ir", "solver/z3", "synth/grammar"},
	"alloc":                     {"solver/milp", "solver/z3", "target"},
	"pipeline":                  {"interp", "ir", "synth"},
	"internal/corpus":           {"diag", "frontend", "ir"},
	"driver":                    {"alloc", "backends/banzai", "diag", "frontend", "interp", "ir", "backends", "menshen", "menshen/lower", "pipeline", "tofino/tna", "synth", "synth/grammar", "target", "tofino", "transform"},
	"cmd/p4hls":                 {"alloc", "diag", "ir", "frontend", "interp", "driver", "menshen", "menshen/lower", "synth", "transform"},
}

func TestImportPolicy(t *testing.T) {
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
		rule, known := allowed[pkg]
		if !known {
			t.Errorf("package %s has no import rule; add it to allowed with its place in DESIGN.md's layout", pkg)
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			if !contains(rule, imp) {
				t.Errorf("%s imports %s, which its rule does not allow (imports flow down the layout)", pkg, imp)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

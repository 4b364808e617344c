package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
	"unicode"
)

// TestDescriptionsAreTheDocComments: every code but Unknown has a
// description, and it is its doc comment in codes.go without the name
// and the example, so the two cannot drift apart.
func TestDescriptionsAreTheDocComments(t *testing.T) {
	docs := codeDocs(t)
	if len(docs) < int(RewriteRejected) {
		t.Fatalf("read %d codes from codes.go, want at least %d", len(docs), RewriteRejected)
	}
	for name, want := range docs {
		var c Code
		for c = 1; c.String() != name && c < 1000; c++ {
		}
		if got := c.Description(); got != want {
			t.Errorf("%s: Description() = %q, want the doc comment's %q", name, got, want)
		}
	}
	if Unknown.Description() != "" || Code(-1).Description() != "" {
		t.Error("Unknown and codes out of range have a description")
	}
}

// codeDocs reads each Code constant's doc comment from codes.go: its
// first paragraph, up to an indented example, without the leading name.
func codeDocs(t *testing.T) map[string]string {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			name := vs.Names[0].Name
			if name == "Unknown" || vs.Doc == nil {
				continue
			}
			var words []string
			for _, line := range strings.Split(vs.Doc.Text(), "\n") {
				if line == "" || strings.HasPrefix(line, "\t") {
					break
				}
				words = append(words, line)
			}
			text := strings.TrimPrefix(strings.Join(words, " "), name)
			text = strings.TrimLeft(text, ": ")
			r := []rune(text)
			r[0] = unicode.ToUpper(r[0])
			out[name] = string(r)
		}
	}
	return out
}

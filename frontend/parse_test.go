package frontend

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/antlr4-go/antlr/v4"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend/cpp"
)

// TestParseByDeclaration: parseTokens builds each declaration and each
// statement as soon as it is parsed; the AST and the diagnostics must be
// those of building the parse tree of the whole program, for every corpus
// program that parses.
func TestParseByDeclaration(t *testing.T) {
	var files []string
	for _, dir := range []string{"ok", "bad", "tna"} {
		m, _ := filepath.Glob(filepath.Join(corpus, dir, "*.p4"))
		files = append(files, m...)
	}
	// lexed returns the tokens of a file, or nil if it does not lex.
	lexed := func(file string, d *diag.List) (*Source, []antlr.Token) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		pre, err := cpp.Preprocess(context.Background(), file, src, Options{}.cppOptions(), d)
		if err != nil || d.HasErrors() {
			return nil, nil
		}
		source := &Source{Result: pre, File: file}
		toks, _ := lex(context.Background(), source, d)
		if d.HasErrors() {
			return nil, nil
		}
		markTypeNames(toks)
		return source, toks
	}
	compared := 0
	for _, file := range files {
		var whole diag.List
		source, toks := lexed(file, &whole)
		if toks == nil {
			continue
		}
		tree, failed := bailParse(toks, antlr.PredictionModeSLL)
		if failed >= 0 {
			continue
		}
		want := (&builder{src: source, diags: &whole}).file(tree)
		var byDecl diag.List
		source, toks = lexed(file, &byDecl)
		got, _ := parseTokens(context.Background(), source, toks, &byDecl)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(byDecl.Items(), whole.Items()) {
			t.Errorf("%s: built by declaration, the AST or the diagnostics differ from the whole program's", file)
		}
		compared++
	}
	if compared < len(files)/2 {
		t.Errorf("compared %d programs of %d; want most", compared, len(files))
	}
}

package frontend

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/p4hls/p4hls/diag"
)

// TestIncludesFromFiles checks that with Options.Files an #include reads
// the given files and the bundled ones, and never the disk: not a file
// that exists beside the main file's name, nor an absolute path, nor a
// path climbing above the root.
func TestIncludesFromFiles(t *testing.T) {
	dir := t.TempDir()
	onDisk := filepath.Join(dir, "secret.p4")
	if err := os.WriteFile(onDisk, []byte("const bit<8> SECRET = 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"lib/consts.p4": []byte("const bit<8> A = 2;\n"),
		"lib/more.p4":   []byte("#include \"consts.p4\"\nconst bit<8> B = A + 1;\n"),
	}
	tests := []struct {
		include  string
		notFound bool
	}{
		{`#include "lib/more.p4"`, false},          // and more.p4's own include, beside it
		{`#include <core.p4>`, false},              // bundled
		{`#include "` + onDisk + `"`, true},        // absolute: on disk, not in files
		{`#include "../lib/consts.p4"`, true},      // above the root
		{`#include "secret.p4"`, true},             // not a key
		{`#include "lib/../lib/consts.p4"`, false}, // cleaned, inside the root
	}
	for _, tc := range tests {
		var d diag.List
		src := []byte(tc.include + "\n")
		_, _, err := Parse(context.Background(), "main.p4", src, Options{Files: files}, &d)
		if err != nil {
			t.Fatal(err)
		}
		notFound := false
		for _, it := range d.Items() {
			if it.Code == diag.IncludeNotFound {
				notFound = true
			}
		}
		if notFound != tc.notFound {
			t.Errorf("%s: include not found = %v, want %v (%v)", tc.include, notFound, tc.notFound, d.Items())
		}
	}
}

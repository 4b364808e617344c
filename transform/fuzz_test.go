package transform

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
)

// FuzzTransform: on any program the frontend accepts, the analysis and
// the rewrite (with or without RegisterActions) finish without error; a program they do not rewrite comes
// back byte for byte; a rewritten one checks and agrees with the original
// on random packets.
func FuzzTransform(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(), "ok", "*.p4"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(programSource("", "if (hdr.app.x == 1) { hdr.app.a = 1; } else if (hdr.app.y & 3 != 2) { hdr.app.b = 2; }")))
	f.Add([]byte(programSource("", "if (hdr.app.x < 10 || !hdr.app.isValid()) { hdr.app.a = 1; }\nif (hdr.app.x >= 10) { hdr.app.a = 2; }")))
	file := filepath.Join(corpus.Dir(), "ok", "fuzz.p4")
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<15 {
			return
		}
		watchdog := time.AfterFunc(20*time.Second, func() {
			panic(fmt.Sprintf("transform ran for more than 20 s on a %d-byte input", len(src)))
		})
		defer watchdog.Stop()
		ctx := context.Background()
		var d diag.List
		prog, _, err := frontend.Load(ctx, file, src, frontend.Options{}, &d)
		if err != nil || prog == nil {
			return
		}
		if _, err := Analyze(ctx, prog, Options{TablesPerStage: 16}); err != nil {
			t.Fatal(err)
		}
		// Half the inputs as Tofino's compiles rewrite: register code in
		// apply blocks made actions too.
		res, err := TransformWith(ctx, prog, file, src, RewriteOptions{RegisterActions: len(src)%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rewrites) == 0 {
			if !bytes.Equal(res.Source, src) {
				t.Fatalf("nothing was rewritten, yet the source changed:\n%s", res.Source)
			}
			return
		}
		var d2 diag.List
		after, _, err := frontend.Load(ctx, file, res.Source, frontend.Options{}, &d2)
		if err != nil || after == nil {
			t.Fatalf("the rewritten program does not check: %v\n%s\n%s", err, &d2, res.Source)
		}
		if prog.Arch != "v1model" {
			return
		}
		sameMeaning(t, prog, after, interp.NewGenerator(prog, 1).Case(200, 4, 4), res.Source)
	})
}

package transform

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// bigControl is an ingress of n statements: tables keyed on header fields
// and if statements testing fields against constants, each writing one of
// a few fields, the shape of a large switch program's apply block.
func bigControl(n int) (decls, apply string) {
	fields := []string{"hdr.app.a", "hdr.app.b", "hdr.app.c", "hdr.app.result", "hdr.ipv4.ttl", "hdr.ipv4.diffserv"}
	var d, a strings.Builder
	for i := 0; i < n; i++ {
		f := fields[i%len(fields)]
		if i%5 == 0 {
			fmt.Fprintf(&d, "    action set%d() { %s = %d; }\n", i, f, i)
			fmt.Fprintf(&d, "    table t%d { key = { hdr.app.x: exact; } actions = { set%d; NoAction; } default_action = NoAction(); }\n", i, i)
			fmt.Fprintf(&a, "        t%d.apply();\n", i)
			continue
		}
		fmt.Fprintf(&a, "        if (hdr.app.round == %d && hdr.app.y < %d) {\n            %s = %d;\n        }\n", i%256, 1+i%200, f, i)
	}
	return d.String(), a.String()
}

// BenchmarkTransform: dependency analysis and rewrite of a 1,000-statement
// apply block (about 3,000 lines).
func BenchmarkTransform(b *testing.B) {
	decls, apply := bigControl(1000)
	src := programSource(decls, apply)
	prog := program(b, decls, apply)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Analyze(context.Background(), prog, Options{TablesPerStage: 16}); err != nil {
			b.Fatal(err)
		}
		if _, err := Transform(context.Background(), prog, "transform_test.p4", []byte(src)); err != nil {
			b.Fatal(err)
		}
	}
}

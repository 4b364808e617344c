package frontend

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
)

// bigProgram generates a valid v1model program of about `lines` lines:
// headers, a parser over them, and controls full of actions, tables and
// conditionals, the shape of a large switch program.
func bigProgram(lines int) []byte {
	var b strings.Builder
	b.WriteString("#include <core.p4>\n#include <v1model.p4>\n\n")
	const headers = 20
	for h := 0; h < headers; h++ {
		fmt.Fprintf(&b, "header h%d_t {\n", h)
		for f := 0; f < 8; f++ {
			fmt.Fprintf(&b, "    bit<%d> f%d;\n", 8*(1+f%4), f)
		}
		b.WriteString("}\n")
	}
	b.WriteString("struct headers {\n")
	for h := 0; h < headers; h++ {
		fmt.Fprintf(&b, "    h%d_t h%d;\n", h, h)
	}
	b.WriteString("}\nstruct metadata { bit<32> m0; bit<32> m1; bit<16> m2; }\n")
	b.WriteString("parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {\n")
	b.WriteString("    state start { transition s0; }\n")
	for h := 0; h < headers; h++ {
		next := "accept"
		if h+1 < headers {
			next = fmt.Sprintf("s%d", h+1)
		}
		fmt.Fprintf(&b, "    state s%d {\n        pkt.extract(hdr.h%d);\n        transition select(hdr.h%d.f0) {\n            0: accept;\n            default: %s;\n        }\n    }\n", h, h, h, next)
	}
	b.WriteString("}\ncontrol VC(inout headers hdr, inout metadata meta) { apply { } }\n")
	control := 0
	for strings.Count(b.String(), "\n") < lines-60 {
		fmt.Fprintf(&b, "control C%d(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {\n", control)
		for t := 0; t < 25; t++ {
			h := (control + t) % headers
			fmt.Fprintf(&b, "    action a%d(bit<32> v, bit<9> port) {\n", t)
			fmt.Fprintf(&b, "        hdr.h%d.f3 = hdr.h%d.f3 + v;\n", h, h)
			fmt.Fprintf(&b, "        meta.m0 = (bit<32>)hdr.h%d.f1 ^ v;\n", h)
			b.WriteString("        sm.egress_spec = port;\n    }\n")
			fmt.Fprintf(&b, "    table t%d {\n        key = { hdr.h%d.f3 : exact; hdr.h%d.f1 : ternary; }\n", t, h, h)
			fmt.Fprintf(&b, "        actions = { a%d; NoAction; }\n        size = 1024;\n        default_action = NoAction();\n    }\n", t)
		}
		b.WriteString("    apply {\n")
		for t := 0; t < 25; t++ {
			h := (control + t) % headers
			fmt.Fprintf(&b, "        if (hdr.h%d.isValid() && hdr.h%d.f0 != 3) {\n            t%d.apply();\n        } else {\n            meta.m1 = meta.m1 + 1;\n        }\n", h, h, t)
		}
		b.WriteString("    }\n}\n")
		control++
	}
	b.WriteString("control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }\n")
	b.WriteString("control CC(inout headers hdr, inout metadata meta) { apply { } }\n")
	b.WriteString("control D(packet_out pkt, in headers hdr) { apply {\n")
	for h := 0; h < headers; h++ {
		fmt.Fprintf(&b, "    pkt.emit(hdr.h%d);\n", h)
	}
	b.WriteString("} }\nV1Switch(P(), VC(), C0(), E(), CC(), D()) main;\n")
	return []byte(b.String())
}

func TestBigProgramChecks(t *testing.T) {
	src := bigProgram(10000)
	if n := strings.Count(string(src), "\n"); n < 9500 {
		t.Fatalf("generated %d lines, want about 10,000", n)
	}
	if d, ok := load(t, src); !ok {
		t.Fatalf("generated program rejected:\n%s", d)
	}
}

func BenchmarkParse10k(b *testing.B) {
	src := bigProgram(10000)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		var d diag.List
		if _, _, err := Parse(context.Background(), "big.p4", src, Options{}, &d); err != nil || d.HasErrors() {
			b.Fatalf("%v %s", err, &d)
		}
	}
}

func BenchmarkCheck10k(b *testing.B) {
	src := bigProgram(10000)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		var d diag.List
		if _, _, err := Load(context.Background(), "big.p4", src, Options{}, &d); err != nil || d.HasErrors() {
			b.Fatalf("%v %s", err, &d)
		}
	}
}

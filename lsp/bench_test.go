package lsp

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// program1000 generates a valid v1model program of about 1,000 lines: a
// header file's worth of headers, a parser, and a control of actions
// and tables, with a constant whose value each edit changes.
func program1000(value int) string {
	var b strings.Builder
	b.WriteString("#include <core.p4>\n#include <v1model.p4>\n")
	fmt.Fprintf(&b, "const bit<32> K = %d;\n", value)
	const headers = 12
	for h := range headers {
		fmt.Fprintf(&b, "header h%d_t {\n", h)
		for f := range 6 {
			fmt.Fprintf(&b, "    bit<%d> f%d;\n", 8*(1+f%4), f)
		}
		b.WriteString("}\n")
	}
	b.WriteString("struct headers {\n")
	for h := range headers {
		fmt.Fprintf(&b, "    h%d_t h%d;\n", h, h)
	}
	b.WriteString("}\nstruct metadata { bit<32> m0; bit<32> m1; }\n")
	b.WriteString("parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {\n    state start {\n")
	for h := range headers {
		fmt.Fprintf(&b, "        pkt.extract(hdr.h%d);\n", h)
	}
	b.WriteString("        transition accept;\n    }\n}\n")
	b.WriteString("control VC(inout headers hdr, inout metadata meta) { apply { } }\n")
	b.WriteString("control C(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {\n")
	t := 0
	for ; strings.Count(b.String(), "\n") < 1000-4*40-20; t++ {
		h := t % headers
		fmt.Fprintf(&b, "    action a%d(bit<32> v, bit<9> port) {\n        hdr.h%d.f3 = hdr.h%d.f3 + v + K;\n", t, h, h)
		fmt.Fprintf(&b, "        meta.m0 = (bit<32>)hdr.h%d.f1 ^ v;\n        sm.egress_spec = port;\n    }\n", h)
		fmt.Fprintf(&b, "    table t%d {\n        key = { hdr.h%d.f3 : exact; hdr.h%d.f1 : ternary; }\n", t, h, h)
		fmt.Fprintf(&b, "        actions = { a%d; NoAction; }\n        default_action = NoAction();\n    }\n", t)
	}
	b.WriteString("    apply {\n")
	for i := range t {
		fmt.Fprintf(&b, "        if (hdr.h%d.isValid()) {\n            t%d.apply();\n        }\n", i%headers, i)
	}
	b.WriteString("    }\n}\n")
	b.WriteString("control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }\n")
	b.WriteString("control CC(inout headers hdr, inout metadata meta) { apply { } }\n")
	b.WriteString("control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }\n")
	b.WriteString("V1Switch(P(), VC(), C(), E(), CC(), D()) main;\n")
	return b.String()
}

func TestProgram1000(t *testing.T) {
	src := program1000(1)
	if n := strings.Count(src, "\n"); n < 950 || n > 1050 {
		t.Fatalf("generated %d lines, want about 1,000", n)
	}
	c := start(t, nil)
	c.initialize()
	c.open("file:///bench/p.p4", src)
	if d := c.diagnostics("file:///bench/p.p4"); len(d) != 0 {
		t.Fatalf("the generated program has diagnostics: %+v", d)
	}
}

// BenchmarkDiagnosticsLatency measures what an editor waits for: from an
// edit (didChange of a 1,000-line program) until its diagnostics arrive,
// over pipes, the server's debounce (DefaultDebounce) included. The
// issue's bound is 100 ms; the figure is ms/edit.
func BenchmarkDiagnosticsLatency(b *testing.B) {
	b.ReportAllocs()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, pipeRWC{Reader: toServer, WriteCloser: fromServer, r: toServer}, Options{})
	diags := make(chan struct{}, 16)
	conn := jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(pipeRWC{Reader: toClient, WriteCloser: fromClient, r: toClient}))
	conn.Go(ctx, func(_ context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == "textDocument/publishDiagnostics" {
			diags <- struct{}{}
		}
		return nil, nil
	})
	defer conn.Close()
	if _, err := conn.Call(ctx, "initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		b.Fatal(err)
	}
	const uri = "file:///bench/p.p4"
	conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "p4", "version": 1, "text": program1000(0)}})
	<-diags
	texts := []string{program1000(1), program1000(2)}
	b.ResetTimer()
	var total time.Duration
	for i := range b.N {
		start := time.Now()
		conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []any{map[string]any{"text": texts[i%2]}},
		})
		<-diags
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/edit")
}

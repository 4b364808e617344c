package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// The editor server's tests speak JSON-RPC to it over pipes, as an
// editor does over stdio: a method each, and the protocol's states.

// pipeRWC joins a pipe's reading end and another's writing end.
type pipeRWC struct {
	io.Reader
	io.WriteCloser
	r io.Closer
}

func (p pipeRWC) Close() error { return errors.Join(p.WriteCloser.Close(), p.r.Close()) }

// client is the test's editor.
type client struct {
	t     *testing.T
	conn  jsonrpc2.Conn
	diags chan PublishDiagnosticsParams
	done  chan error
}

// start runs a server (with extra methods) and connects a client to it.
func start(t *testing.T, extra map[string]handler) *client {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	c := &client{t: t, diags: make(chan PublishDiagnosticsParams, 64), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		c.done <- serve(ctx, pipeRWC{Reader: toServer, WriteCloser: fromServer, r: toServer}, Options{Version: "test", Debounce: time.Millisecond}, extra)
	}()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(pipeRWC{Reader: toClient, WriteCloser: fromClient, r: toClient}))
	c.conn.Go(ctx, func(_ context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == "textDocument/publishDiagnostics" {
			var p PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			c.diags <- p
		}
		return nil, nil
	})
	t.Cleanup(func() {
		cancel()
		c.conn.Close()
	})
	return c
}

// call sends a request and decodes its result.
func (c *client) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *client) notify(method string, params any) {
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatal(err)
	}
}

// diagnostics waits for the next publication for uri.
func (c *client) diagnostics(uri string) []Diagnostic {
	c.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri {
				return p.Diagnostics
			}
		case <-timeout:
			c.t.Fatalf("no diagnostics for %s", uri)
		}
	}
}

// initialize says hello as an editor offering only LSP's default
// encoding (UTF-16), so positions go through the conversions.
func (c *client) initialize() {
	c.t.Helper()
	var res initializeResult
	if err := c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}}, &res); err != nil {
		c.t.Fatal(err)
	}
	if res.Capabilities.PositionEncoding != "utf-16" || !res.Capabilities.HoverProvider || res.ServerInfo.Name != "p4hls" {
		c.t.Fatalf("initialize: got %+v", res)
	}
	c.notify("initialized", map[string]any{})
}

// program is the test program, its header file, and their URIs.
type program struct {
	dir, text             string
	uri, headersURI, path string
}

func testProgram(t *testing.T) program {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "prog.p4"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "prog.p4")
	return program{dir: dir, text: string(text), path: path, uri: uriOf(path), headersURI: uriOf(filepath.Join(dir, "headers.p4"))}
}

func (c *client) open(uri, text string) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "p4", "version": 1, "text": text}})
}

func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{Line: line, Character: char}}
}

// TestDiagnosticsOnOpenAndChange: a program with an undeclared name gets
// the error at the name (line 29, columns 27-30 of prog.p4, counted by
// hand, 0-based in LSP), and an edit that fixes it clears it.
func TestDiagnosticsOnOpenAndChange(t *testing.T) {
	c := start(t, nil)
	c.initialize()
	p := testProgram(t)
	c.open(p.uri, strings.Replace(p.text, "egress_spec = port;", "egress_spec = prot;", 1))
	got := c.diagnostics(p.uri)
	want := Range{Start: Position{Line: 28, Character: 26}, End: Position{Line: 28, Character: 30}}
	if len(got) != 1 || got[0].Range != want || got[0].Code != "UndeclaredName" || got[0].Severity != 1 || got[0].Source != "p4hls" {
		t.Fatalf("got %+v, want one UndeclaredName error at %+v", got, want)
	}
	// The edit: "prot" back to "port", as an editor sends it (a range).
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": p.uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": want, "text": "port"}},
	})
	if got := c.diagnostics(p.uri); len(got) != 0 {
		t.Fatalf("after the fix: got %+v, want none", got)
	}
}

// TestDiagnosticsOfIncludedFile: an error in the header file an open
// program includes is published for the header file.
func TestDiagnosticsOfIncludedFile(t *testing.T) {
	c := start(t, nil)
	c.initialize()
	p := testProgram(t)
	headers, err := os.ReadFile(filepath.Join(p.dir, "headers.p4"))
	if err != nil {
		t.Fatal(err)
	}
	// The open buffer of headers.p4 stands in for the file on disk.
	c.open(p.headersURI, strings.Replace(string(headers), "bit<8>  ttl;", "bitt<8> ttl;", 1))
	c.open(p.uri, p.text)
	got := c.diagnostics(p.headersURI)
	for len(got) == 0 { // the check of headers.p4 alone may come first
		got = c.diagnostics(p.headersURI)
	}
	if got[0].Range.Start.Line != 9 {
		t.Fatalf("got %+v, want an error on line 10 of headers.p4", got)
	}
}

// TestHover: a field's declaration and the expression's type; an
// action's signature; a table's keys and actions.
func TestHover(t *testing.T) {
	c := start(t, nil)
	c.initialize()
	p := testProgram(t)
	c.open(p.uri, p.text)
	for _, tc := range []struct {
		name       string
		line, char int
		want       []string
	}{
		{"field", 29, 18, []string{"bit<8> ttl; // a field of header ipv4_t", "type `bit<8>`"}},
		{"action", 33, 21, []string{"action forward(bit<9> port)"}},
		{"table", 38, 13, []string{"table route {", "key = { hdr.ipv4.dst: lpm; }", "actions = { forward; drop; }"}},
		{"extern", 25, 9, []string{"extern void mark_to_drop(inout standard_metadata_t standard_metadata)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h *Hover
			if err := c.call("textDocument/hover", at(p.uri, tc.line, tc.char), &h); err != nil {
				t.Fatal(err)
			}
			if h == nil {
				t.Fatal("got no hover")
			}
			for _, w := range tc.want {
				if !strings.Contains(h.Contents.Value, w) {
					t.Errorf("hover %q does not say %q", h.Contents.Value, w)
				}
			}
		})
	}
}

// TestDefinitionAndReferences: hdr.ipv4's field is declared in
// headers.p4, line 18, column 16; the action forward is declared on line
// 28 and named in the table on line 34.
func TestDefinitionAndReferences(t *testing.T) {
	c := start(t, nil)
	c.initialize()
	p := testProgram(t)
	c.open(p.uri, p.text)
	var locs []Location
	if err := c.call("textDocument/definition", at(p.uri, 29, 13), &locs); err != nil {
		t.Fatal(err)
	}
	want := Location{URI: p.headersURI, Range: Range{Start: Position{17, 15}, End: Position{17, 19}}}
	if len(locs) != 1 || locs[0] != want {
		t.Fatalf("definition: got %+v, want %+v", locs, want)
	}
	params := at(p.uri, 33, 21)
	params["context"] = map[string]any{"includeDeclaration": true}
	if err := c.call("textDocument/references", params, &locs); err != nil {
		t.Fatal(err)
	}
	wantRefs := []Location{
		{URI: p.uri, Range: Range{Start: Position{27, 11}, End: Position{27, 18}}},
		{URI: p.uri, Range: Range{Start: Position{33, 20}, End: Position{33, 27}}},
	}
	if len(locs) != 2 || locs[0] != wantRefs[0] || locs[1] != wantRefs[1] {
		t.Fatalf("references: got %+v, want %+v", locs, wantRefs)
	}
}

// TestDocumentSymbols: the outline of prog.p4 holds its parser with its
// states and its ingress control with its actions and table; the
// headers, declared in headers.p4, are not in it.
func TestDocumentSymbols(t *testing.T) {
	c := start(t, nil)
	c.initialize()
	p := testProgram(t)
	c.open(p.uri, p.text)
	var syms []DocumentSymbol
	if err := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": p.uri}}, &syms); err != nil {
		t.Fatal(err)
	}
	names := func(ss []DocumentSymbol) string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return strings.Join(out, " ")
	}
	if got, want := names(syms), "MyParser MyVerify MyIngress MyEgress MyCompute MyDeparser main"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got, want := names(syms[0].Children), "start parse_ipv4"; got != want {
		t.Errorf("MyParser's children: got %q, want %q", got, want)
	}
	if got, want := names(syms[2].Children), "drop forward route"; got != want {
		t.Errorf("MyIngress's children: got %q, want %q", got, want)
	}
	if syms[2].Kind != symClass || syms[2].Children[2].Kind != symObject || syms[2].SelectionRange.Start != (Position{22, 8}) {
		t.Errorf("MyIngress: got %+v", syms[2])
	}
}

// TestCompletion: after "hdr.ipv4." in a line being typed (the program
// does not parse), the fields of ipv4_t and a header's methods; in the
// apply block, the tables and actions.
func TestCompletion(t *testing.T) {
	c := start(t, nil)
	c.initialize()
	p := testProgram(t)
	c.open(p.uri, p.text)
	c.diagnostics(p.uri)
	lines := strings.Split(p.text, "\n")
	lines[38] = "        hdr.ipv4.t" // inside apply, before the if
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": p.uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": strings.Join(lines, "\n")}},
	})
	var list completionList
	if err := c.call("textDocument/completion", at(p.uri, 38, len(lines[38])), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Label != "ttl" || list.Items[0].Detail != "bit<8>" {
		t.Fatalf("after hdr.ipv4.t: got %+v, want ttl", list.Items)
	}
	lines[38] = "        r"
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": p.uri, "version": 3},
		"contentChanges": []any{map[string]any{"text": strings.Join(lines, "\n")}},
	})
	if err := c.call("textDocument/completion", at(p.uri, 38, 9), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Label != "route" || list.Items[0].Detail != "table" {
		t.Fatalf("after r: got %+v, want the table route", list.Items)
	}
}

// TestPanicIsAnError: a handler's panic is an internal-error response,
// and the server answers the next request.
func TestPanicIsAnError(t *testing.T) {
	c := start(t, map[string]handler{"p4hls/panic": func(context.Context, json.RawMessage) (any, error) {
		var m map[string]int
		m["x"]++ // a nil map: a bug
		return nil, nil
	}})
	c.initialize()
	err := c.call("p4hls/panic", nil, nil)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.InternalError || !strings.Contains(rpcErr.Message, "internal error in p4hls") {
		t.Fatalf("got %v, want an internal error", err)
	}
	var syms []DocumentSymbol
	if err := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///nosuch.p4"}}, &syms); err != nil {
		t.Fatalf("after the panic: %v", err)
	}
}

// TestProtocolStates: a request before initialize is refused, a
// notification dropped; shutdown
// then exit ends Serve without an error; unknown methods are refused.
func TestProtocolStates(t *testing.T) {
	c := start(t, nil)
	var rpcErr *jsonrpc2.Error
	if err := c.call("textDocument/hover", at("file:///a.p4", 0, 0), nil); !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.ServerNotInitialized {
		t.Fatalf("before initialize: got %v, want ServerNotInitialized", err)
	}
	c.open("file:///early.p4", "const bit<8> A = 1;\n") // dropped: before initialize
	c.initialize()
	var syms []DocumentSymbol
	if err := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///early.p4"}}, &syms); err != nil || syms != nil {
		t.Fatalf("a document opened before initialize: got %v, %v; want it unknown (null)", syms, err)
	}
	if err := c.call("p4hls/nosuch", nil, nil); !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.MethodNotFound {
		t.Fatalf("an unknown method: got %v, want MethodNotFound", err)
	}
	if err := c.call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

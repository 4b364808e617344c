package check

import (
	"context"
	"errors"
	"testing"
)

// TestFilesReadsOnlyTheRequest: an #include resolves among the request's
// files; one the request lacks is a diagnostic at the directive, even
// when the disk has it.
func TestFilesReadsOnlyTheRequest(t *testing.T) {
	files := map[string][]byte{
		"main.p4":  []byte("#include \"lib/h.p4\"\nconst bit<8> B = A;\n"),
		"lib/h.p4": []byte("const bit<8> A = 1;\n"),
	}
	res, err := Run(context.Background(), Files("main.p4", files, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("got %v, want no errors", res.Diagnostics.Items())
	}
	if res.Program == nil || res.Program.Globals.Lookup("A") == nil {
		t.Fatal("A, declared in the included file, is not in the program's scope")
	}
	files = map[string][]byte{"main.p4": []byte("#include \"/etc/hostname\"\n")}
	res, err = Run(context.Background(), Files("main.p4", files, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	items := res.Diagnostics.Items()
	if len(items) != 1 || items[0].Code.String() != "IncludeNotFound" || items[0].Span.Start.Line != 1 {
		t.Fatalf("got %v, want one IncludeNotFound at line 1", items)
	}
}

// TestKeepsProgramWithErrors: a program with an error keeps what the
// checker resolved, and the error is in the diagnostics at its place.
func TestKeepsProgramWithErrors(t *testing.T) {
	src := "const bit<8> A = 1;\nconst bit<8> B = Y;\n"
	res, err := Run(context.Background(), Request{File: "a.p4", Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	items := res.Diagnostics.Items()
	if res.OK() || len(items) != 1 {
		t.Fatalf("got %v, want one error", items)
	}
	d := items[0]
	if d.Span.Start.Line != 2 || d.Span.Start.Col != 18 || d.Code.String() != "UndeclaredName" {
		t.Errorf("got %v (%s), want UndeclaredName at a.p4:2:18", d, d.Code)
	}
	if res.Program == nil || res.Program.Globals.Lookup("A") == nil {
		t.Error("the program with an error lost its declarations")
	}
	if string(res.Text("a.p4")) != src {
		t.Errorf("Text(a.p4) = %q", res.Text("a.p4"))
	}
}

// TestCancelled: a cancelled check says so with the context's error.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Request{File: "a.p4", Source: []byte("const bit<8> A = 1;\n")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

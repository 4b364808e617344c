package cpp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/p4hls/p4hls/diag"
)

// run preprocesses main.p4 among files and returns the non-blank output
// lines with their spaces folded, and the diagnostics.
func run(t *testing.T, files map[string]string) ([]string, []string, *Result) {
	t.Helper()
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	bundled := fstest.MapFS{"core.p4": {Data: []byte("// core\nextern packet_in {}\n")}}
	var d diag.List
	res, err := Preprocess(context.Background(), "main.p4", []byte(files["main.p4"]),
		Options{IncludeDirs: []string{"inc"}, Bundled: bundled, ReadFile: read}, &d)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(res.Text), "\n") {
		if f := strings.Join(strings.Fields(l), ""); f != "" {
			lines = append(lines, f)
		}
	}
	var diags []string
	for _, x := range d.Items() {
		diags = append(diags, x.String())
	}
	return lines, diags, res
}

func TestPreprocess(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
		diags []string
	}{
		{
			name:  "object macro",
			files: map[string]string{"main.p4": "#define W 8\nbit<W> x;\n"},
			want:  []string{"bit<8>x;"},
		},
		{
			name:  "a backslash and spaces before the newline splice, with gcc's warning",
			files: map[string]string{"main.p4": "#define SUM(a) a + \\  \n  1\nx = SUM(2);\n"},
			want:  []string{"x=2+1;"},
			diags: []string{"main.p4:1:20: warning: backslash and newline separated by space"},
		},
		{
			name:  "function macro and nesting",
			files: map[string]string{"main.p4": "#define SQ(a) ((a)*(a))\n#define TWO 2\nx = SQ(TWO+1);\n"},
			want:  []string{"x=((2+1)*(2+1));"},
		},
		{
			name:  "self reference stops",
			files: map[string]string{"main.p4": "#define f(x) x + f(x)\n#define g g\ny = f(1); g;\n"},
			want:  []string{"y=1+f(1);g;"},
		},
		{
			name:  "stringify and paste",
			files: map[string]string{"main.p4": "#define S(x) #x\n#define CAT(a, b) a ## b\nS(hello world) CAT(foo, 12)\n"},
			want:  []string{`"helloworld"foo12`},
		},
		{
			name: "conditionals",
			files: map[string]string{"main.p4": "#define A 2\n#if A > 1 && defined(A)\nyes1\n#else\nno1\n#endif\n" +
				"#ifdef B\nno2\n#elif A == 2\nyes2\n#else\nno3\n#endif\n#ifndef B\nyes3\n#endif\n" +
				"#if 0\n#bogus directive in a skipped group\n#if 1\nno4\n#endif\n#endif\n"},
			want: []string{"yes1", "yes2", "yes3"},
		},
		{
			name:  "undef",
			files: map[string]string{"main.p4": "#define A 1\n#undef A\n#ifdef A\nno\n#endif\nA\n"},
			want:  []string{"A"},
		},
		{
			name: "include search order and bundled",
			files: map[string]string{
				"main.p4":    "#include <core.p4>\n#include \"local.p4\"\n#include \"lib.p4\"\n",
				"local.p4":   "local_decl;\n",
				"inc/lib.p4": "lib_decl;\n",
			},
			want: []string{"//core", "externpacket_in{}", "local_decl;", "lib_decl;"},
		},
		{
			name: "include guard",
			files: map[string]string{
				"main.p4": "#include \"g.p4\"\n#include \"g.p4\"\n",
				"g.p4":    "#ifndef G\n#define G\nonce;\n#endif\n",
			},
			want: []string{"once;"},
		},
		{
			name:  "multi-line call keeps lines",
			files: map[string]string{"main.p4": "#define ADD(a, b) a + b\nx = ADD(1,\n 2);\nnext;\n"},
			// The ; stays on line 3, where it was written.
			want: []string{"x=1+2", ";", "next;"},
		},
		{
			name:  "directive inside comment is text",
			files: map[string]string{"main.p4": "/* a\n#define X 1\n*/ X\n"},
			want:  []string{"/*a", "#defineX1", "*/X"},
		},
		{
			name:  "line continuation",
			files: map[string]string{"main.p4": "#define LONG 1 + \\\n 2\nLONG\n"},
			want:  []string{"1+2"},
		},
		{
			name:  "missing include",
			files: map[string]string{"main.p4": "\n#include \"nosuch.p4\"\n"},
			diags: []string{`main.p4:2:1: error: cannot find include file "nosuch.p4" (searched ., inc, the bundled include files)`},
		},
		{
			name:  "include cycle",
			files: map[string]string{"main.p4": "#include \"a.p4\"\n", "a.p4": "#include \"main.p4\"\n"},
			diags: []string{"a.p4:1:1: error: #include cycle: main.p4 includes itself (through main.p4 -> a.p4)"},
		},
		{
			name:  "unbalanced",
			files: map[string]string{"main.p4": "#endif\n#if 1\n#else\n#else\n"},
			diags: []string{
				"main.p4:1:1: error: #endif without #if",
				"main.p4:2:1: error: #if without #endif",
				"main.p4:4:1: error: #else after #else",
			},
		},
		{
			name:  "error directive and unknown directive",
			files: map[string]string{"main.p4": "#error stop here\n#frobnicate\n"},
			diags: []string{"main.p4:1:1: error: #error stop here", "main.p4:2:1: error: unknown preprocessor directive #frobnicate"},
		},
		{
			name:  "bad if expression",
			files: map[string]string{"main.p4": "#if 1 +\n#endif\n#if 1/0\n#endif\n"},
			diags: []string{"main.p4:1:1: error: bad #if expression: expression ends early",
				"main.p4:3:1: error: bad #if expression: division by zero"},
		},
		{
			name:  "macro argument count",
			files: map[string]string{"main.p4": "#define F(a, b) a\nF(1)\n"},
			want:  []string{"F(1)"},
			diags: []string{"main.p4:2:1: error: macro F takes 2 arguments, got 1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags, _ := run(t, tc.files)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("output:\ngot  %q\nwant %q", got, tc.want)
			}
			if strings.Join(diags, "\n") != strings.Join(tc.diags, "\n") {
				t.Errorf("diagnostics:\ngot  %q\nwant %q", diags, tc.diags)
			}
		})
	}
}

func TestOriginMapsIncludedLines(t *testing.T) {
	files := map[string]string{
		"main.p4": "first;\n#include \"b.p4\"\nlast;\n",
		"b.p4":    "\nb2;\n",
	}
	_, _, res := run(t, files)
	want := map[string]Origin{"first;": {"main.p4", 1}, "b2;": {"b.p4", 2}, "last;": {"main.p4", 3}}
	checkOrigins(t, res, want)
}

// TestLineDirective: #line N makes the next line line N (p4hls's own
// rewrites use it to keep the user's line numbers); one in an inactive
// #if does not count.
func TestLineDirective(t *testing.T) {
	files := map[string]string{
		"main.p4": "first;\n#line 40\nforty;\nforty_one;\n#if 0\n#line 7\n#endif\nforty_five;\n#line 3 \"main.p4\"\nthree;\n",
	}
	_, diags, res := run(t, files)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	want := map[string]Origin{"first;": {"main.p4", 1}, "forty;": {"main.p4", 40}, "forty_one;": {"main.p4", 41},
		"forty_five;": {"main.p4", 45}, "three;": {"main.p4", 3}}
	checkOrigins(t, res, want)
}

// checkOrigins checks the origin of each output line want lists (by its
// text, spaces trimmed).
func checkOrigins(t *testing.T, res *Result, want map[string]Origin) {
	t.Helper()
	for i, l := range strings.Split(string(res.Text), "\n") {
		if o, ok := want[strings.TrimSpace(l)]; ok {
			if got := res.Origin(i + 1); got != o {
				t.Errorf("line %q: origin %v, want %v", l, got, o)
			}
			delete(want, strings.TrimSpace(l))
		}
	}
	if len(want) != 0 {
		t.Errorf("lines not found in output: %v", want)
	}
}

func TestMacroBombIsBounded(t *testing.T) {
	// Each level doubles: 2^40 tokens if unbounded.
	var b strings.Builder
	b.WriteString("#define M0 x\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "#define M%d M%d M%d\n", i, i-1, i-1)
	}
	b.WriteString("M40\n")
	_, diags, _ := run(t, map[string]string{"main.p4": b.String()})
	if len(diags) == 0 || !strings.Contains(diags[0], "macro expansion does not end") {
		t.Errorf("got diagnostics %q, want a macro expansion limit", diags)
	}
}

func FuzzPreprocess(f *testing.F) {
	f.Add("#define F(a) a\nF(1)\n#if defined F\nx\n#endif\n")
	f.Add("/* #if */\n#if (1\n")
	f.Add("#include \"main.p4\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		var d diag.List
		read := func(name string) ([]byte, error) {
			if name == "main.p4" {
				return []byte(src), nil
			}
			return nil, os.ErrNotExist
		}
		res, err := Preprocess(context.Background(), "main.p4", []byte(src), Options{ReadFile: read}, &d)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Count(string(res.Text), "\n"), len(res.Lines); got != want {
			t.Fatalf("%d output lines but %d origins", got, want)
		}
	})
}

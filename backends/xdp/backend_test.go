package xdp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/backends/xdp"
	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
)

// refused are the corpus programs the xdp target refuses, each with what
// its refusal must say: a construct XDP cannot express, or one this
// backend does not implement yet, at its place in the source.
var refused = map[string]string{
	"counters_meters":  `counters_meters.p4:22:9: meters are not supported`,
	"custom_arch":      `custom_arch.p4:\d+:\d+: the xdp target takes v1model programs`,
	"ipv4_options":     `ipv4_options.p4:41:1: header ipv4_options_t: its field options is a varbit, and varbit fields are not supported by the xdp target`,
	"l2_learning":      `l2_learning.p4:23:9: digest is not supported`,
	"multicast_copies": `multicast_copies.p4:23:13: multicast \(standard_metadata.mcast_grp\) is not supported by the xdp target`,
	"parser_forms":     `parser_forms.p4:40:21: hdr.u.next cannot be written by the xdp target`,
	"parser_locals":    `parser_locals.p4:15:1: values of type bit<0> are not supported by the xdp target`,
	"random_clone":     `random_clone.p4:24:13: clone is not supported by the xdp target: XDP cannot copy a packet`,
	"special_ops":      `special_ops.p4:37:17: resubmit_preserving_field_list is not supported by the xdp target: XDP cannot run a packet through the program again`,
	"varbit_ops":       `varbit_ops.p4:30:1: header value_t: its field v is a varbit`,
}

// compile compiles a corpus program for xdp through the driver.
func compile(t *testing.T, file string, src []byte) (*driver.Result, error) {
	t.Helper()
	return driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: xdp.Name}, nil)
}

// compileFile compiles a test program from its file, failing the test
// when it does not compile, and returns the result, object and layout.
func compileFile(t *testing.T, file string) (*driver.Result, []byte, kernel.Layout) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := compile(t, file, src)
	if err != nil {
		t.Fatal(err)
	}
	obj, layout := output(t, res)
	return res, obj, layout
}

// output returns the object and the layout a compile wrote.
func output(t *testing.T, res *driver.Result) ([]byte, kernel.Layout) {
	t.Helper()
	var obj []byte
	var layout kernel.Layout
	for _, a := range res.Artifacts {
		switch a.Name {
		case kernel.ObjectFile:
			obj = a.Data
		case kernel.LayoutFile:
			if err := json.Unmarshal(a.Data, &layout); err != nil {
				t.Fatal(err)
			}
		}
	}
	if obj == nil {
		t.Fatalf("no %s among the artifacts", kernel.ObjectFile)
	}
	return obj, layout
}

// TestCorpus compiles every corpus program for xdp. A refused program must
// be refused with a *backends.Error naming the construct at its place; a
// compiled one must load through the kernel's verifier, agree with the
// interpreter on 10,000 random packets with random entries and register
// contents (verdict, port, bytes, every register cell), and pass its
// packet test on the kernel.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus.Dir(), "ok", "*.p4"))
	if err != nil {
		t.Fatal(err)
	}
	var compiled, verified []string
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".p4")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := compile(t, file, src)
			if want, ok := refused[name]; ok {
				checkRefusal(t, err, want)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			compiled = append(compiled, name)
			obj, layout := output(t, res)
			d, err := kernel.Diff(res.Program, obj, layout, 7, 10000)
			if err != nil {
				t.Fatal(err)
			}
			if d != nil {
				t.Fatalf("the kernel disagrees with the interpreter: %v\n%s", d, d.STF(res.Program))
			}
			verified = append(verified, name)
			stf := strings.TrimSuffix(file, ".p4") + ".stf"
			if _, err := os.Stat(stf); err == nil {
				runSTF(t, res, obj, layout, stf)
			}
		})
	}
	sort.Strings(compiled)
	t.Logf("compiled %d, refused %d, verified on 10,000 packets %d: %v", len(compiled), len(refused), len(verified), verified)
	if len(compiled)+len(refused) != len(files) {
		t.Errorf("%d programs, %d compiled and %d refused", len(files), len(compiled), len(refused))
	}
}

func checkRefusal(t *testing.T, err error, want string) {
	t.Helper()
	var be *backends.Error
	var dnf *driver.DoesNotFitError
	switch {
	case err == nil:
		t.Fatalf("compiled; want a refusal matching %q", want)
	case !errors.As(err, &dnf) || !errors.As(err, &be):
		t.Fatalf("refused with %v (%T); want a *backends.Error, reported as does-not-fit", err, err)
	case be.Span.Start.Line == 0:
		t.Fatalf("the refusal %q has no place in the source", be)
	}
	if !regexp.MustCompile(want).MatchString(be.Error()) {
		t.Errorf("refused with %q; want it to match %q", be.Error(), want)
	}
}

// runSTF runs a corpus program's packet test on the kernel.
func runSTF(t *testing.T, res *driver.Result, obj []byte, layout kernel.Layout, file string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := interp.ParseSTF(file, string(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := kernel.Load(obj, layout, res.Program)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := interp.RunSTF(m, file, cmds)
	if err != nil {
		t.Fatal(err)
	}
	for _, mm := range r.Mismatches {
		t.Errorf("%s:%d: packet %d: %s", filepath.Base(file), mm.Line, mm.Packet, mm.Msg)
	}
	if r.Expectations == 0 {
		t.Errorf("%s checks nothing", file)
	}
}

// TestBpftoolLoad loads an output with Debian's bpftool, as an operator
// would (`bpftool prog load`), and checks the maps carry BTF.
func TestBpftoolLoad(t *testing.T) {
	bpftool, err := exec.LookPath("bpftool")
	if err != nil {
		t.Fatalf("bpftool is not installed (scripts/setup.sh installs it): %v", err)
	}
	_, obj, _ := compileFile(t, filepath.Join(corpus.Dir(), "ok", "flowlet.p4"))
	dir := t.TempDir()
	path := filepath.Join(dir, kernel.ObjectFile)
	if err := os.WriteFile(path, obj, 0o644); err != nil {
		t.Fatal(err)
	}
	pin := filepath.Join("/sys/fs/bpf", "p4hls_test_"+filepath.Base(dir))
	out, err := exec.Command(bpftool, "prog", "load", path, pin).CombinedOutput()
	if err != nil {
		t.Fatalf("bpftool prog load: %v\n%s", err, out)
	}
	defer os.Remove(pin)
	show, err := exec.Command(bpftool, "prog", "show", "pinned", pin).CombinedOutput()
	if err != nil {
		t.Fatalf("bpftool prog show: %v\n%s", err, show)
	}
	if !strings.Contains(string(show), "xdp") || !strings.Contains(string(show), "btf_id") {
		t.Errorf("bpftool shows %s; want an xdp program with BTF", show)
	}
	btf, err := exec.Command(bpftool, "btf", "dump", "file", path).CombinedOutput()
	if err != nil {
		t.Fatalf("bpftool btf dump: %v\n%s", err, btf)
	}
	for _, want := range []string{"bpf_spin_lock", "atomic0_val", "DATASEC '.maps'"} {
		if !strings.Contains(string(btf), want) {
			t.Errorf("the object's BTF has no %q", want)
		}
	}
}

// TestCounters runs counters.stf on the kernel and reads the counters: by
// hand, one 15-byte packet on port 1 and one on port 3, and one hit of
// the direct counter (its cell 0, as interp counts it), by fwd only.
func TestCounters(t *testing.T) {
	file := "testdata/counters.p4"
	res, obj, layout := compileFile(t, file)
	if d, err := kernel.Diff(res.Program, obj, layout, 3, 10000); err != nil || d != nil {
		t.Fatalf("against interp: %v %v", err, d)
	}
	m, err := kernel.Load(obj, layout, res.Program)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	stf, err := os.ReadFile("testdata/counters.stf")
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := interp.ParseSTF("counters.stf", string(stf))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := interp.RunSTF(m, "counters.stf", cmds); err != nil || len(r.Mismatches) > 0 {
		t.Fatalf("counters.stf: %v %v", err, r)
	}
	for _, c := range []struct {
		name  string
		index uint64
		want  interp.Counter
	}{
		{"by_port", 1, interp.Counter{Packets: 1, Bytes: 15}},
		{"by_port", 3, interp.Counter{Packets: 1, Bytes: 15}},
		{"by_port", 2, interp.Counter{}},
		{"hits", 0, interp.Counter{Packets: 1, Bytes: 15}},
	} {
		got, err := m.Counter(c.name, c.index)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s[%d]: got %+v, want %+v", c.name, c.index, got, c.want)
		}
	}
}

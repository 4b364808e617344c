// Package xdp is the NIC target: it compiles a v1model program into an XDP
// program for the Linux kernel (or a NIC that offloads XDP), an ELF object
// with BTF-described maps that bpftool, ip, xdp-loader, libbpf and
// cilium/ebpf load, and a description of every map (maps.json).
//
// The instructions come from generated C compiled by clang, not from
// cilium/ebpf's asm package. The reasons: the object must carry BTF for
// its maps (a bpf_spin_lock in a map value is only accepted with BTF) and
// be the ELF the ecosystem's loaders read, which clang writes and asm
// would need an ELF and BTF writer of ours for; clang's register
// allocation and optimizations give code as good as a hand-written C
// program's, which is what the benchmark compares with; and the C is
// readable beside the object (prog.c). The cost is clang at compile time,
// which the set-up installs.
//
// What the target cannot do is refused before clang runs, with the place
// of the construct: the verifier must never be the one to say no.
package xdp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/target"
)

// Backend is the xdp target.
type Backend struct{}

// Name is the target's name.
const Name = "xdp"

// Target describes XDP: a processor, so no limits or ALUs.
func (Backend) Target() *target.Target {
	return &target.Target{
		Name:        Name,
		Description: "XDP/eBPF for the Linux kernel and NICs that run XDP (an ELF object with BTF maps)",
		Processor:   true,
	}
}

// Options: the CPU port.
func (Backend) Options() []backends.Option {
	return []backends.Option{{Name: "cpu-port", Default: strconv.Itoa(kernel.DefaultCPUPort),
		Description: "the P4 port whose packets go to the AF_XDP socket of the queue they came in on"}}
}

// Report is the xdp target's section of report.json.
type Report struct {
	Instructions int `json:"instructions"`
	Maps         int `json:"maps"`
	Tables       int `json:"tables"`
	Registers    int `json:"registers"`
	LockGroups   int `json:"lock_groups"`
}

// Emit writes prog.c, prog.o and maps.json.
func (b Backend) Emit(ctx context.Context, c *backends.Compiled, opts backends.Options) (*backends.Output, error) {
	cpu, err := strconv.Atoi(opts.Value(b, "cpu-port"))
	if err != nil || cpu < 0 || cpu >= kernel.DropPort {
		return nil, fmt.Errorf("option cpu-port: %q is not a port from 0 to %d", opts.Value(b, "cpu-port"), kernel.DropPort-1)
	}
	src, layout, err := generate(c.Program, genOptions{cpuPort: cpu})
	if err != nil {
		return nil, err
	}
	obj, err := Compile(ctx, src)
	if errors.Is(err, errStackLimit) {
		// The program's copies of its headers and metadata outgrow the
		// stack the verifier allows: a limit of the target, not a bug.
		return nil, backends.Errorf(c.Program.Pipeline[ir.V1Ingress].Control.Span, "the program needs more than the %d bytes of stack an XDP program may use (its headers, metadata and locals, copied where P4 copies them)", bpfStackBytes)
	}
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(c.Source.Text)
	// Absolute, so that sim finds them from any folder.
	layout.Source, layout.SHA256 = absolute(c.Source.File), hex.EncodeToString(sum[:])
	for _, d := range c.Source.IncludeDirs {
		layout.IncludeDirs = append(layout.IncludeDirs, absolute(d))
	}
	layout.Defines = c.Source.Defines
	js, err := json.MarshalIndent(layout, "", "  ")
	if err != nil {
		return nil, err
	}
	n, err := Instructions(obj)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", backends.ErrInternal, err)
	}
	locked := 0
	for _, r := range layout.Registers {
		if r.Locked {
			locked++
		}
	}
	return &backends.Output{
		Artifacts: []backends.Artifact{
			{Name: kernel.ObjectFile, MediaType: "application/x-elf", Data: obj},
			{Name: kernel.LayoutFile, MediaType: "application/json", Data: append(js, '\n')},
			{Name: kernel.SourceFile, MediaType: "text/x-c", Data: []byte(src)},
		},
		Report: Report{Instructions: n, Maps: len(layout.Maps), Tables: len(layout.Tables),
			Registers: len(layout.Registers), LockGroups: countGroups(layout)},
	}, nil
}

func countGroups(l kernel.Layout) int {
	seen := map[string]bool{}
	for _, r := range l.Registers {
		if r.Locked {
			seen[r.Map] = true
		}
	}
	return len(seen)
}

// Clang finds the C compiler: clang-14 as Debian 12 ships it, else clang.
func Clang() (string, error) {
	for _, name := range []string{"clang-14", "clang"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("clang is not installed (scripts/setup.sh installs clang-14)")
}

// Compile compiles C for the BPF target (clang -O2 -g: -g writes the BTF
// of the maps) and returns the object.
func Compile(ctx context.Context, src string) ([]byte, error) {
	cc, err := Clang()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", backends.ErrInternal, err)
	}
	dir, err := os.MkdirTemp("", "p4hls-xdp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, kernel.SourceFile), filepath.Join(dir, kernel.ObjectFile)
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	// The C nests a bracket or two per operator of a P4 expression, and
	// the frontend lets an expression nest frontend.MaxExpressionDepth
	// deep, past clang's default of 256.
	cmd := exec.CommandContext(ctx, cc, "-O2", "-g", "-Wno-unused-label", "-Wno-unused-variable",
		fmt.Sprintf("-fbracket-depth=%d", 4*max(frontend.MaxExpressionDepth, frontend.MaxStatementDepth)), "-target", "bpf", "-c", in, "-o", out)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if strings.Contains(stderr.String(), "BPF stack limit") {
			return nil, errStackLimit
		}
		// What p4hls wrote does not compile: p4hls's bug.
		return nil, fmt.Errorf("%w: clang: %v\n%s", backends.ErrInternal, err, stderr.String())
	}
	return os.ReadFile(out)
}

// bpfStackBytes is the stack an eBPF program may use.
const bpfStackBytes = 512

// errStackLimit is clang finding that a program uses more stack than
// bpfStackBytes.
var errStackLimit = errors.New("the BPF stack limit is exceeded")

// Instructions counts the eBPF instructions of the object's XDP section
// (8 bytes each; a 64-bit immediate load counts twice, as the kernel
// counts it).
func Instructions(obj []byte) (int, error) {
	f, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		return 0, fmt.Errorf("reading the object: %w", err)
	}
	s := f.Section(kernel.Section)
	if s == nil {
		return 0, fmt.Errorf("the object has no section %q", kernel.Section)
	}
	return int(s.Size / 8), nil
}

// ObjectAndLayout finds the object and its maps' layout among a compile's
// artifacts.
func ObjectAndLayout(arts []backends.Artifact) ([]byte, kernel.Layout, error) {
	var obj, js []byte
	for _, a := range arts {
		switch a.Name {
		case kernel.ObjectFile:
			obj = a.Data
		case kernel.LayoutFile:
			js = a.Data
		}
	}
	var layout kernel.Layout
	if err := json.Unmarshal(js, &layout); err != nil {
		return nil, layout, fmt.Errorf("reading %s: %w", kernel.LayoutFile, err)
	}
	return obj, layout, nil
}

// Verify loads what Emit wrote into the kernel and runs it against the
// interpreter on packets random packets (`compile --verify N`).
func (Backend) Verify(ctx context.Context, c *backends.Compiled, out *backends.Output, _ backends.Options, packets int) error {
	obj, layout, err := ObjectAndLayout(out.Artifacts)
	if err != nil {
		return fmt.Errorf("%w: %w", backends.ErrInternal, err)
	}
	d, err := kernel.Diff(c.Program, obj, layout, 1, packets)
	switch {
	case errors.Is(err, kernel.ErrTooComplex):
		// A limit of the target, as the stack is: the program's loops
		// over header stacks and its branches make too many paths.
		return backends.Errorf(c.Program.Pipeline[ir.V1Parser].Parser.Span, "%v", kernel.ErrTooComplex)
	case err != nil:
		return fmt.Errorf("%w: %w", backends.ErrInternal, err)
	case d != nil:
		return fmt.Errorf("%w: the kernel disagrees with the interpreter: %v\n%s", backends.ErrInternal, d, d.STF(c.Program))
	}
	return ctx.Err()
}

func absolute(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

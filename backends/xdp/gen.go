package xdp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// gen turns a v1model program into one C function for clang's BPF target.
// Everything is inlined into that function (actions, tables, controls,
// parser states as labels): an exit then is a goto, and an @atomic block
// holding a bpf_spin_lock never calls a BPF-to-BPF function, which the
// verifier forbids under a lock.
//
// A refusal is the first *backends.Error met (gen.err); generation goes on
// writing nonsense after it, which is never compiled.
type gen struct {
	prog *ir.Program
	opts genOptions
	b    strings.Builder
	ind  int
	err  error
	// at is the P4 construct being written: each C line ends with a
	// comment naming its place (kernel.PlaceMarker), so that clang's line
	// information leads from an instruction back to the P4 source.
	at diag.Span

	names   map[*ir.Var]string
	structs map[*ir.Struct]bool
	stacks  map[string]bool // the C names of the stack and tuple types declared
	order   []ir.Type       // struct and stack types in dependency order
	nlabel  int

	// Per control being written: the label an exit jumps to.
	exitLabel string
	// Per action or function being written: the label a return jumps to,
	// and the variable a function's value goes to.
	returnLabel, returnVar string
	// actionExit is the flag an exit sets in the action being written
	// ("" outside actions).
	actionExit string
	// inAtomic is the span of the @atomic block being written, when in one.
	inAtomic *diag.Span
	loops    int
	// continues are the labels a continue goes to, one per loop around
	// the code ("": C's own continue).
	continues []string
	// rejectLabel is where a parser error goes, in the parser only.
	rejectLabel string
	// The v1model block parameters' types, and the C name of
	// standard_metadata.
	hdrType, metaType *ir.Struct
	stdName           string
	// dirtyFields and dirtyAll are the header fields (lvalue.f_name) and
	// the headers or structs of them (lvalues) the program may write;
	// extractedAt names the variable holding where the parser found each
	// header it extracts.
	dirtyFields map[string]bool
	dirtyAll    []string
	extractedAt map[string]string
	// prior is the first pass's dirtyFields and dirtyAll, complete before
	// any line is written (nil in the first pass: nothing is known).
	prior *writes
	// revalidates is set when the program may make a header valid or
	// invalid after the parser (setValid, setInvalid, a header or a struct
	// of them written whole, push_front, pop_front).
	revalidates bool
	// The CRC tables the program's hashes need.
	needCRC16, needCRC32 bool

	tables    map[*ir.Table]*tableInfo
	registers map[*ir.Instance]*regInfo
	counters  map[*ir.Instance]*kernel.Counter
	groups    []*lockGroup
	layout    kernel.Layout
	maps      strings.Builder // map definitions
	helpers   strings.Builder // per-table types
}

type genOptions struct {
	cpuPort int
}

// fail records a refusal at sp (the first one wins).
func (g *gen) fail(sp diag.Span, format string, args ...any) {
	if g.err == nil {
		g.err = backends.Errorf(sp, format, args...)
	}
}

func (g *gen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("\t", g.ind))
	fmt.Fprintf(&g.b, format, args...)
	if g.at.File != "" && g.at.Start.Line > 0 {
		fmt.Fprintf(&g.b, " %s%s:%d", kernel.PlaceMarker, g.at.File, g.at.Start.Line)
	}
	g.b.WriteByte('\n')
}

// writing makes sp the place of the lines written until the returned
// function restores the last one.
func (g *gen) writing(sp diag.Span) func() {
	saved := g.at
	if sp.File != "" {
		g.at = sp
	}
	return func() { g.at = saved }
}

func (g *gen) label() int {
	g.nlabel++
	return g.nlabel
}

// ------------------------------------------------------------------ types

// ctype is the C type holding a scalar of w bits: values are kept
// zero-extended (an int<W> as its W-bit two's complement).
func ctype(w int) string {
	switch {
	case w <= 8:
		return "u8"
	case w <= 16:
		return "u16"
	case w <= 32:
		return "u32"
	}
	return "u64"
}

// width is a scalar type's width in bits (bool 1, error 32, an enum without
// underlying type 32); 0 for aggregates.
func width(t ir.Type) int {
	switch t := t.(type) {
	case *ir.Bits:
		return t.Width
	case ir.Bool:
		return 1
	case ir.ErrorType:
		return 32
	case *ir.Enum:
		if t.Underlying != nil {
			return t.Underlying.Width
		}
		return 32
	case ir.Int:
		return 64
	}
	return 0
}

func signedType(t ir.Type) bool {
	b, ok := t.(*ir.Bits)
	return ok && b.Signed
}

// typeName is the C spelling of a P4 type (sp says where a refusal points).
func (g *gen) typeName(t ir.Type, sp diag.Span) string {
	switch t := t.(type) {
	case *ir.Struct:
		// A header union is a struct of its headers: at most one of them
		// valid (setValid and extract invalidate the others).
		g.addStruct(t, sp)
		return "struct s_" + t.Name
	case *ir.Stack:
		return "struct " + g.addStack(t, sp)
	case *ir.Tuple:
		return "struct " + g.addTuple(t, sp)
	case *ir.Varbit:
		g.fail(sp, "varbit fields are not supported by the xdp target")
		return "u8"
	}
	w := width(t)
	switch {
	case w == 0:
		g.fail(sp, "values of type %s are not supported by the xdp target", t)
	case w > 64:
		g.fail(sp, "%s: values wider than 64 bits are not supported by the xdp target (eBPF registers are 64 bits)", t)
	}
	return ctype(w)
}

// addStruct declares a struct type (and the ones it holds) once.
func (g *gen) addStruct(s *ir.Struct, sp diag.Span) {
	if g.structs[s] {
		return
	}
	g.structs[s] = true
	for _, f := range s.Fields {
		if s.Kind == ir.KindHeader && opaqueField(f.Type) {
			continue // bytes: see opaqueField
		}
		if _, ok := f.Type.(*ir.Varbit); ok {
			g.fail(sp, "%s %s: its field %s is a varbit, and varbit fields are not supported by the xdp target", s.Kind, s.Name, f.Name)
			continue
		}
		g.typeName(f.Type, sp)
	}
	g.order = append(g.order, s)
}

// stackName is the C struct of a stack type: its elements, and next_, the
// stack's nextIndex (the elements extract has filled).
func stackName(t *ir.Stack) string {
	return fmt.Sprintf("stk_%s_%d", sanitize(t.Elem.String()), t.Size)
}

// addStack declares a stack type (and its element's) once.
func (g *gen) addStack(t *ir.Stack, sp diag.Span) string {
	name := stackName(t)
	if g.stacks[name] {
		return name
	}
	g.stacks[name] = true
	if t.Size <= 0 {
		g.fail(sp, "a stack of %d elements is not supported by the xdp target", t.Size)
	}
	g.typeName(t.Elem, sp)
	g.order = append(g.order, t)
	return name
}

// tupleName is the C struct of a tuple type: its elements are f_0, f_1...
// (a tuple's Member is named by its index).
func tupleName(t *ir.Tuple) string {
	return "tup_" + sanitize(t.String())
}

// addTuple declares a tuple type (and its elements' types) once.
func (g *gen) addTuple(t *ir.Tuple, sp diag.Span) string {
	name := tupleName(t)
	if g.stacks[name] {
		return name
	}
	g.stacks[name] = true
	for _, e := range t.Elems {
		g.typeName(e, sp)
	}
	g.order = append(g.order, t)
	return name
}

func (g *gen) structDecls() string {
	var b strings.Builder
	for _, t := range g.order {
		if st, ok := t.(*ir.Stack); ok {
			fmt.Fprintf(&b, "struct %s {\n\t%s e[%d];\n\tu32 next_;\n};\n", stackName(st), g.typeName(st.Elem, diag.Span{}), st.Size)
			continue
		}
		if tt, ok := t.(*ir.Tuple); ok {
			fmt.Fprintf(&b, "struct %s {\n", tupleName(tt))
			for i, e := range tt.Elems {
				fmt.Fprintf(&b, "\t%s f_%d;\n", g.typeName(e, diag.Span{}), i)
			}
			if len(tt.Elems) == 0 {
				b.WriteString("\tu8 empty_;\n")
			}
			b.WriteString("};\n")
			continue
		}
		s := t.(*ir.Struct)
		fmt.Fprintf(&b, "struct s_%s {\n", s.Name)
		for _, f := range s.Fields {
			if s.Kind == ir.KindHeader && opaqueField(f.Type) {
				// Aligned so that it is copied 4 bytes at a time (the
				// verifier takes only aligned stack accesses).
				fmt.Fprintf(&b, "\tu8 f_%s[%d] __attribute__((aligned(4)));\n", f.Name, width(f.Type)/8)
				continue
			}
			fmt.Fprintf(&b, "\t%s f_%s;\n", g.typeName(f.Type, diag.Span{}), f.Name)
		}
		if s.Kind == ir.KindHeader {
			b.WriteString("\tu8 valid_;\n")
		}
		if len(s.Fields) == 0 && s.Kind != ir.KindHeader {
			b.WriteString("\tu8 empty_;\n")
		}
		b.WriteString("};\n")
	}
	return b.String()
}

// opaqueField says whether a header field of type t is held as its bytes
// (big-endian, as in the packet): wider than a register, a whole number of
// bytes. The parser extracts it and the deparser emits it, but no
// expression reads or writes its value (lvalue refuses it at its place):
// an IPv6 address the program only carries.
func opaqueField(t ir.Type) bool {
	w := width(t)
	return w > 64 && w%8 == 0
}

// varName gives each variable a C name of its own.
func (g *gen) varName(v *ir.Var) string {
	if n, ok := g.names[v]; ok {
		return n
	}
	n := fmt.Sprintf("v%d_%s", len(g.names), v.Name)
	g.names[v] = n
	return n
}

// declare writes a zeroed local of v's type.
func (g *gen) declare(v *ir.Var) {
	g.line("%s %s = %s;", g.typeName(v.Type, v.Span), g.varName(v), zeroInit(v.Type))
}

// zeroInit is the C initializer of a zero value of t.
func zeroInit(t ir.Type) string {
	switch t.(type) {
	case *ir.Struct, *ir.Stack, *ir.Tuple:
		return "{}"
	}
	return "0"
}

func mask(w int) string {
	if w >= 64 {
		return "0xffffffffffffffffULL"
	}
	return fmt.Sprintf("0x%xULL", uint64(1)<<uint(w)-1)
}

// instSize is an extern instance's first constructor argument (a
// register's or counter's size).
func instSize(inst *ir.Instance) int {
	if len(inst.Args) > 0 {
		if c, ok := inst.Args[0].(*ir.Const); ok && c.Value.IsInt64() {
			return int(c.Value.Int64())
		}
	}
	return 1
}

func sortedInstances(m map[*ir.Instance]*regInfo) []*regInfo {
	var out []*regInfo
	for _, r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out
}

package xdp

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// regInfo is where a register lives. An unlocked register is an ARRAY map
// of its own; a locked one (read or written in an @atomic block) is an
// array in the value of its lock group's map.
type regInfo struct {
	inst  *ir.Instance
	index int
	name  string
	width int
	size  int
	group *lockGroup
}

// lockGroup is registers that @atomic blocks touch together: one map value
// holds them all beside one bpf_spin_lock. No helper may be called with
// the lock held, so every cell a block may touch must be reachable from
// one value looked up before the lock is taken; a block's indexes are
// computed inside it. The group's lock is then coarser than a cell's, and
// a block holding it is one transaction on every register it touches.
type lockGroup struct {
	id   int
	regs []*regInfo
}

func (lg *lockGroup) mapName() string { return fmt.Sprintf("atomic%d", lg.id) }
func (lg *lockGroup) ptr() string     { return fmt.Sprintf("grp%d", lg.id) }

// registerOf resolves a register instance, refusing others.
func (g *gen) registerOf(e ir.Expr) *regInfo {
	r, ok := e.(*ir.InstanceRef)
	if !ok {
		return nil
	}
	return g.registers[r.Inst]
}

// findRegisters lists the register instances a block reads or writes.
func findRegisters(ss []ir.Stmt, out map[*ir.Instance]bool) {
	var expr func(e ir.Expr)
	call := func(c *ir.Call) {
		if r, ok := c.Callee.Recv.(*ir.InstanceRef); ok && r.Inst.Type.Name == "register" {
			out[r.Inst] = true
		}
		for _, a := range c.Args {
			if a.Value != nil {
				expr(a.Value)
			}
		}
	}
	expr = func(e ir.Expr) {
		if c, ok := e.(*ir.Call); ok {
			call(c)
		}
	}
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.CallStmt:
			call(s.Call)
		case *ir.Assign:
			expr(s.RHS)
		case *ir.Declare:
			if s.Init != nil {
				expr(s.Init)
			}
		case *ir.If:
			expr(s.Cond)
			findRegisters(s.Then, out)
			findRegisters(s.Else, out)
		case *ir.Block:
			findRegisters(s.Body, out)
		case *ir.CallAction:
			findRegisters(s.Call.Action.Body, out)
		case *ir.For:
			findRegisters(s.Body, out)
		}
	}
}

// atomicBlocks lists every @atomic block of the program's actions and
// controls.
func atomicBlocks(prog *ir.Program) []*ir.Block {
	var out []*ir.Block
	var walk func(ss []ir.Stmt)
	walk = func(ss []ir.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ir.Block:
				if s.Atomic {
					out = append(out, s)
					continue
				}
				walk(s.Body)
			case *ir.If:
				walk(s.Then)
				walk(s.Else)
			}
		}
	}
	for _, c := range prog.Controls {
		for _, a := range c.Actions {
			walk(a.Body)
		}
		walk(c.Body)
	}
	for _, a := range prog.Actions {
		walk(a.Body)
	}
	return out
}

// planRegisters gives every register its map, grouping the ones @atomic
// blocks touch together (union of the blocks' register sets).
func (g *gen) planRegisters() {
	var insts []*ir.Instance
	insts = append(insts, g.prog.Instances...)
	for _, c := range g.prog.Controls {
		insts = append(insts, c.Instances...)
	}
	for _, inst := range insts {
		if inst.Type.Name != "register" {
			continue
		}
		w := 0
		if len(inst.Type.Args) > 0 {
			w = width(inst.Type.Args[0])
		}
		if w == 0 || w > 64 {
			g.fail(inst.Span, "register %s: cells wider than 64 bits (or not bits) are not supported by the xdp target", inst.Name)
			continue
		}
		g.registers[inst] = &regInfo{inst: inst, index: len(g.registers), name: inst.Name, width: w, size: instSize(inst)}
	}
	var groups []map[*ir.Instance]bool
	for _, b := range atomicBlocks(g.prog) {
		set := map[*ir.Instance]bool{}
		findRegisters(b.Body, set)
		if len(set) == 0 {
			continue
		}
		// Merge every earlier group this block shares a register with.
		var kept []map[*ir.Instance]bool
		for _, grp := range groups {
			shared := false
			for r := range set {
				shared = shared || grp[r]
			}
			if shared {
				for r := range grp {
					set[r] = true
				}
			} else {
				kept = append(kept, grp)
			}
		}
		groups = append(kept, set)
	}
	for _, set := range groups {
		lg := &lockGroup{id: len(g.groups)}
		for _, r := range sortedInstances(g.registers) {
			if set[r.inst] {
				r.group = lg
				lg.regs = append(lg.regs, r)
			}
		}
		g.groups = append(g.groups, lg)
	}
	g.registerMaps()
}

// registerMaps declares the registers' maps and records their layout.
func (g *gen) registerMaps() {
	for _, lg := range g.groups {
		fmt.Fprintf(&g.maps, "struct %s_val {\n\tstruct bpf_spin_lock lock;\n", lg.mapName())
		off := 4
		for _, r := range lg.regs {
			cb := cellBytes(r.width)
			off = (off + cb - 1) / cb * cb
			fmt.Fprintf(&g.maps, "\t%s r_%s[%d];\n", ctype(r.width), r.name, r.size)
			g.layout.Registers = append(g.layout.Registers, kernel.Register{Name: r.name, Map: lg.mapName(),
				WidthBits: r.width, Size: r.size, CellBytes: cb, Locked: true, Offset: off})
			off += cb * r.size
		}
		g.maps.WriteString("};\n")
		g.defineMap(lg.mapName(), "BPF_MAP_TYPE_ARRAY", "u32", "struct "+lg.mapName()+"_val", 1, "", 4, off,
			"registers "+regNames(lg.regs)+" and their lock")
	}
	for _, r := range sortedInstances(g.registers) {
		if r.group != nil {
			continue
		}
		m := "reg_" + r.name
		fmt.Fprintf(&g.maps, "struct %s_val { %s v; };\n", m, ctype(r.width))
		g.defineMap(m, "BPF_MAP_TYPE_ARRAY", "u32", "struct "+m+"_val", r.size, "", 4, cellBytes(r.width), "register "+r.name)
		g.layout.Registers = append(g.layout.Registers, kernel.Register{Name: r.name, Map: m,
			WidthBits: r.width, Size: r.size, CellBytes: cellBytes(r.width)})
	}
}

func regNames(rs []*regInfo) string {
	var names []string
	for _, r := range rs {
		names = append(names, r.name)
	}
	return strings.Join(names, ", ")
}

func cellBytes(w int) int {
	switch ctype(w) {
	case "u8":
		return 1
	case "u16":
		return 2
	case "u32":
		return 4
	}
	return 8
}

// atomic writes an @atomic block: its registers' group lock held around it.
func (g *gen) atomic(b *ir.Block) {
	set := map[*ir.Instance]bool{}
	findRegisters(b.Body, set)
	var lg *lockGroup
	for inst := range set {
		if r := g.registers[inst]; r != nil {
			lg = r.group
		}
	}
	sp := b.Span()
	g.inAtomic = &sp
	defer func() { g.inAtomic = nil }()
	if lg == nil {
		g.nested(b.Body) // no state: one packet's block is atomic by itself
		return
	}
	g.line("bpf_spin_lock(&%s->lock);", lg.ptr())
	g.nested(b.Body)
	g.line("bpf_spin_unlock(&%s->lock);", lg.ptr())
}

// noHelper refuses a helper call inside an @atomic block: the verifier
// forbids calls while a spin lock is held.
func (g *gen) noHelper(sp diag.Span, what string) {
	if g.inAtomic != nil {
		g.fail(sp, "%s inside an @atomic block is not supported by the xdp target: no BPF helper may run while the block's spin lock is held", what)
	}
}

// registerRead returns the value of register cell idx (0 out of range, as
// interp reads it).
func (g *gen) registerRead(r *regInfo, idx string, sp diag.Span) string {
	v := fmt.Sprintf("rr%d", g.label())
	i := fmt.Sprintf("ri%d", g.label())
	g.line("u64 %s = 0, %s = %s;", v, i, idx)
	if r.group != nil {
		g.line("opaque(%s);", i)
		g.line("if (%s < %d) %s = %s->r_%s[%s];", i, r.size, v, r.group.ptr(), r.name, i)
		return v
	}
	g.noHelper(sp, "reading register "+r.name+" outside the block's lock group")
	g.line("if (%s < %d) { u32 k_ = %s; struct reg_%s_val *p_ = bpf_map_lookup_elem(&reg_%s, &k_); if (p_) %s = p_->v; }",
		i, r.size, i, r.name, r.name, v)
	return v
}

func (g *gen) registerWrite(r *regInfo, idx, val string, sp diag.Span) {
	i := fmt.Sprintf("ri%d", g.label())
	g.line("u64 %s = %s;", i, idx)
	if r.group != nil {
		g.line("opaque(%s);", i)
		g.line("if (%s < %d) %s->r_%s[%s] = %s;", i, r.size, r.group.ptr(), r.name, i, val)
		return
	}
	g.noHelper(sp, "writing register "+r.name+" outside the block's lock group")
	g.line("if (%s < %d) { u32 k_ = %s; struct reg_%s_val *p_ = bpf_map_lookup_elem(&reg_%s, &k_); if (p_) p_->v = %s; }",
		i, r.size, i, r.name, r.name, val)
}

// callValue writes a call that yields a value.
func (g *gen) callValue(c *ir.Call) string {
	if c.Callee.Func != nil {
		return g.callFunction(c)
	}
	if c.Callee.Recv != nil {
		if r := g.registerOf(c.Callee.Recv); r != nil && c.Callee.Method == "read" && len(c.Args) == 1 {
			return g.registerRead(r, g.expr(c.Args[0].Value), c.Span())
		}
		if t, ok := c.Callee.Recv.Type().(*ir.Extern); ok && t.Name == "packet_in" && c.Callee.Method == "lookahead" {
			return g.lookahead(c)
		}
		if t, ok := c.Callee.Recv.Type().(*ir.Extern); ok && t.Name == "Checksum16" && c.Callee.Method == "get" {
			buf, n := g.serialize(g.flatten(g.arg(c, 0)))
			return g.hashOf("csum16", buf, n, c)
		}
	}
	g.fail(c.Span(), "%s is not supported by the xdp target", callName(c))
	return "0"
}

func callName(c *ir.Call) string {
	switch {
	case c.Callee.Extern != "":
		return c.Callee.Extern
	case c.Callee.Func != nil:
		return c.Callee.Func.Name
	case c.Callee.Recv != nil:
		return ir.Format(c.Callee.Recv) + "." + c.Callee.Method
	}
	return "this call"
}

func (g *gen) arg(c *ir.Call, i int) ir.Expr {
	if i < len(c.Args) {
		return c.Args[i].Value
	}
	return nil
}

// callStmt writes an extern call, a method call or a function call whose
// value, if any, is not used.
func (g *gen) callStmt(c *ir.Call) {
	if c.Callee.Func != nil {
		g.callFunction(c)
		return
	}
	if c.Callee.Recv != nil {
		g.method(c)
		return
	}
	switch c.Callee.Extern {
	case "mark_to_drop":
		sm := g.lvalue(g.arg(c, 0))
		g.line("%s.f_egress_spec = %d;", sm, kernel.DropPort)
		g.line("%s.f_mcast_grp = 0;", sm)
	case "verify":
		cond, e := g.expr(g.arg(c, 0)), g.expr(g.arg(c, 1))
		if g.rejectLabel == "" {
			g.fail(c.Span(), "verify outside a parser is not supported by the xdp target")
			return
		}
		g.line("if (!%s) { perr = %s; goto %s; }", cond, e, g.rejectLabel)
	case "hash":
		g.hash(c)
	case "update_checksum", "verify_checksum":
		g.checksum(c, c.Callee.Extern == "update_checksum")
	case "random":
		g.noHelper(c.Span(), "random")
		dst := g.arg(c, 0)
		lo, hi := g.expr(g.arg(c, 1)), g.expr(g.arg(c, 2))
		w := width(dst.Type())
		r := fmt.Sprintf("rnd%d", g.label())
		g.line("u64 %s; { u64 lo_ = %s, hi_ = %s; u64 r_ = bpf_get_prandom_u32(); %s = hi_ < lo_ ? lo_ : (lo_ + r_ %% (hi_ - lo_ + 1)) & %s; }",
			r, lo, hi, r, mask(w))
		g.write(dst, r)
	case "log_msg", "assert", "assume":
		// No effect on the packet: XDP has no log to write to here, and a
		// failed assertion is a fault interp reports, not an output.
	case "update_checksum_with_payload", "verify_checksum_with_payload":
		g.fail(c.Span(), "%s is not supported by the xdp target (a checksum over the payload needs a loop over the whole packet)", c.Callee.Extern)
	case "clone", "clone_preserving_field_list", "clone3":
		g.fail(c.Span(), "%s is not supported by the xdp target: XDP cannot copy a packet", c.Callee.Extern)
	case "resubmit", "resubmit_preserving_field_list":
		g.fail(c.Span(), "%s is not supported by the xdp target: XDP cannot run a packet through the program again", c.Callee.Extern)
	case "recirculate", "recirculate_preserving_field_list":
		g.fail(c.Span(), "%s is not supported by the xdp target: XDP cannot recirculate a packet", c.Callee.Extern)
	case "digest":
		g.fail(c.Span(), "digest is not supported by the xdp target")
	case "truncate":
		g.fail(c.Span(), "truncate is not supported by the xdp target")
	default:
		g.fail(c.Span(), "extern %s is not supported by the xdp target", c.Callee.Extern)
	}
}

func (g *gen) method(c *ir.Call) {
	recv, ok := c.Callee.Recv.Type().(*ir.Extern)
	if !ok {
		g.fail(c.Span(), "%s is not supported by the xdp target", callName(c))
		return
	}
	switch recv.Name + "." + c.Callee.Method {
	case "packet_in.extract":
		g.extract(c)
		return
	case "packet_in.advance":
		g.advance(c)
		return
	case "packet_out.emit":
		g.fail(c.Span(), "emit is supported by the xdp target only in the deparser")
		return
	case "register.read":
		if r := g.registerOf(c.Callee.Recv); r != nil && len(c.Args) == 2 {
			v := g.registerRead(r, g.expr(g.arg(c, 1)), c.Span())
			g.write(g.arg(c, 0), v)
			return
		}
	case "register.write":
		if r := g.registerOf(c.Callee.Recv); r != nil {
			idx, v := g.expr(g.arg(c, 0)), g.expr(g.arg(c, 1))
			g.registerWrite(r, idx, v, c.Span())
			return
		}
	case "counter.count", "direct_counter.count":
		g.count(c)
		return
	case "meter.execute_meter", "direct_meter.read":
		g.fail(c.Span(), "meters are not supported by the xdp target")
		return
	}
	g.fail(c.Span(), "%s is not supported by the xdp target", callName(c))
}

// count adds the packet to a counter cell (an atomic add: counters are
// shared by every CPU).
func (g *gen) count(c *ir.Call) {
	r, _ := c.Callee.Recv.(*ir.InstanceRef)
	if r == nil {
		g.fail(c.Span(), "%s is not supported by the xdp target", callName(c))
		return
	}
	g.noHelper(c.Span(), "counting")
	ci := g.counter(r.Inst)
	idx := "0"
	if len(c.Args) > 0 {
		idx = g.expr(g.arg(c, 0))
	}
	g.line("{ u64 i_ = %s; if (i_ < %d) { u32 k_ = i_; struct p4_count *p_ = bpf_map_lookup_elem(&%s, &k_); if (p_) { __sync_fetch_and_add(&p_->packets, 1); __sync_fetch_and_add(&p_->bytes, pktlen); } } }",
		idx, ci.Size, ci.Map)
}

func (g *gen) counter(inst *ir.Instance) *kernel.Counter {
	if c, ok := g.counters[inst]; ok {
		return c
	}
	size := instSize(inst)
	if inst.Type.Name == "direct_counter" {
		size = 1 // interp counts a direct counter's hits in its cell 0
	}
	c := &kernel.Counter{Name: inst.Name, Map: "ctr_" + inst.Name, Size: size}
	g.counters[inst] = c
	g.defineMap(c.Map, "BPF_MAP_TYPE_ARRAY", "u32", "struct p4_count", size, "", 4, 16, "counter "+inst.Name)
	g.layout.Counters = append(g.layout.Counters, *c)
	return c
}

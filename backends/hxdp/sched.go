package hxdp

import (
	"fmt"
	"sort"

	"github.com/p4hls/p4hls/hxdp"
)

// The scheduler packs instructions into rows of hxdp.Lanes lanes. A row's
// instructions satisfy Bernstein's conditions: none writes a register or
// memory another reads or writes, so the row means what the instructions
// mean in any order. It schedules a trace at a time: a block and the
// blocks it falls into that only it reaches, each but the last ending in
// a conditional jump. Within a trace:
//
//   - a block's jump shares the row of the block's last instructions, or
//     comes after them;
//   - the jumps of a trace may share a row (parallel branching): the
//     earlier in program order takes the lower lane, and the core takes
//     the lowest lane's taken jump;
//   - an instruction of a later block may move up into or above an
//     earlier block's jump (the paper's code motion from control
//     equivalent blocks) when running it on the jump's taken path
//     changes nothing there: it computes a register (or loads from the
//     stack) and its register is dead where the jump goes.
//
// A trace starts a row: jumps land on rows.

// srow is a row being filled: its instructions, and how many lanes they
// take.
type srow struct {
	ins   []*insn
	lanes int
	calls int
}

// schedule is the program as rows: each row's instructions, lanes
// assigned, and where each trace (block reached by a jump) starts.
type schedule struct {
	rows  [][hxdp.Lanes]*insn
	start map[*block]int
	// rowOf is each instruction's row.
	rowOf map[*insn]int
}

// node is an instruction in a trace's dependency graph.
type node struct {
	in    *insn
	order int // program order in the trace
	blk   int // the block's place in the trace
	succ  []dep
	npred int
	// height is the longest path (in rows) to the trace's end.
	height int
	// base is the version of the register a load or store addresses
	// through (how many writes of it the trace made before): two
	// accesses through one version of one register are at known distance.
	base int
	// vers is every register's version before the instruction.
	vers   [16]int
	row    int
	placed bool
}

// dep is an edge: to's row is at least from's plus lat (0: the same row
// allowed).
type dep struct {
	to  *node
	lat int
}

// scheduleProgram schedules every trace of the program, in layout order.
func scheduleProgram(p *program, sequential bool) (*schedule, error) {
	if !layoutOK(p) {
		return nil, fmt.Errorf("the blocks are not laid out in fall-through order")
	}
	f := analyze(p)
	liveIn := regLiveIn(p)
	preds := p.preds()
	s := &schedule{start: map[*block]int{}, rowOf: map[*insn]int{}}
	for i := 0; i < len(p.blocks); {
		trace := []*block{p.blocks[i]}
		for j := i; j+1 < len(p.blocks); j++ {
			b, nx := p.blocks[j], p.blocks[j+1]
			// nx joins the trace when only b's fall-through reaches it: a
			// conditional jump of b to nx itself (the passes can leave one,
			// once the code between went) needs nx to start a row.
			if b.next != nx || len(preds[nx]) != 1 || b.term() == nil || !b.term().cond() || b.term().target == nx {
				break
			}
			trace = append(trace, nx)
		}
		s.start[trace[0]] = len(s.rows)
		rows := scheduleTrace(trace, f, liveIn)
		if sequential {
			rows = nil
			for _, b := range trace {
				for _, in := range b.ins {
					rows = append(rows, &srow{ins: []*insn{in}, lanes: in.lanes()})
				}
			}
		}
		for _, r := range rows {
			s.rows = append(s.rows, assignLanes(r))
			for _, in := range r.ins {
				s.rowOf[in] = len(s.rows) - 1
			}
		}
		for _, b := range trace[1:] {
			s.start[b] = -1 // reached only by falling through
		}
		i += len(trace)
	}
	return s, nil
}

// scheduleTrace list-schedules one trace: the highest node first among
// those whose predecessors are placed, each in the earliest row its
// dependencies and the row's lanes allow.
func scheduleTrace(trace []*block, f *facts, liveIn map[*block]uint16) []*srow {
	nodes := traceGraph(trace, f, liveIn)
	if len(nodes) == 0 {
		return nil
	}
	var rows []*srow
	ready := []*node{}
	for _, n := range nodes {
		if n.npred == 0 {
			ready = append(ready, n)
		}
	}
	earliest := map[*node]int{}
	for len(ready) > 0 {
		sort.Slice(ready, func(i, j int) bool {
			if ready[i].height != ready[j].height {
				return ready[i].height > ready[j].height
			}
			return ready[i].order < ready[j].order
		})
		n := ready[0]
		ready = ready[1:]
		r := earliest[n]
		for ; ; r++ {
			for len(rows) <= r {
				rows = append(rows, &srow{})
			}
			if fits(rows[r], n.in) {
				break
			}
		}
		rows[r].ins = append(rows[r].ins, n.in)
		rows[r].lanes += n.in.lanes()
		if n.in.IsCall() {
			rows[r].calls++
		}
		n.row, n.placed = r, true
		for _, d := range n.succ {
			earliest[d.to] = max(earliest[d.to], r+d.lat)
			d.to.npred--
			if d.to.npred == 0 {
				ready = append(ready, d.to)
			}
		}
	}
	return rows
}

// fits says the row has room for the instruction: lanes, and one helper
// call per row (the core has one helper bus).
func fits(r *srow, in *insn) bool {
	if r.lanes+in.lanes() > hxdp.Lanes {
		return false
	}
	return !in.IsCall() || r.calls == 0
}

// assignLanes places a row's instructions: 64-bit immediate loads first
// (each on two adjacent lanes), then the other instructions, then the
// jumps and exits in program order, so that the earliest takes the
// lowest lane of the row's jumps.
func assignLanes(r *srow) [hxdp.Lanes]*insn {
	var out [hxdp.Lanes]*insn
	var wide, plain, jumps []*insn
	for _, in := range r.ins {
		switch {
		case in.wide():
			wide = append(wide, in)
		case in.IsJump():
			jumps = append(jumps, in)
		default:
			plain = append(plain, in)
		}
	}
	lane := 0
	for _, in := range wide {
		out[lane] = in
		lane += 2
	}
	for _, in := range append(plain, jumps...) {
		out[lane] = in
		lane++
	}
	return out
}

// traceGraph builds the dependencies of a trace's instructions.
func traceGraph(trace []*block, f *facts, liveIn map[*block]uint16) []*node {
	var nodes []*node
	var terms []*node // each block's jump, by block
	var ver [16]int
	for bi, b := range trace {
		var term *node
		for _, in := range b.ins {
			n := &node{in: in, order: len(nodes), blk: bi, vers: ver}
			if r, ok := baseReg(in); ok {
				n.base = ver[r]
			}
			_, def := regUse(in)
			for r := range ver {
				if def&(1<<r) != 0 {
					ver[r]++
				}
			}
			nodes = append(nodes, n)
			if in.IsJump() {
				term = n
			}
		}
		terms = append(terms, term)
	}
	for j, y := range nodes {
		for _, x := range nodes[:j] {
			if lat, ok := depends(x, y, f, terms, liveIn); ok {
				x.succ = append(x.succ, dep{y, lat})
				y.npred++
			}
		}
	}
	for i := len(nodes) - 1; i >= 0; i-- {
		n := nodes[i]
		for _, d := range n.succ {
			n.height = max(n.height, d.to.height+d.lat)
		}
	}
	return nodes
}

// depends says whether y (later in program order) must follow x, and by
// how many rows.
func depends(x, y *node, f *facts, terms []*node, liveIn map[*block]uint16) (int, bool) {
	xu, xd := regUse(x.in)
	yu, yd := regUse(y.in)
	if xd&yu != 0 || xu&yd != 0 || xd&yd != 0 {
		return 1, true // Bernstein: no register read and written, or written twice, in one row
	}
	if memConflict(x.in, y.in, f) && !apart(x, y) {
		return 1, true
	}
	if x.in.IsJump() {
		// y is in a later block of the trace.
		switch {
		case y.in.IsJump():
			return 0, true // one row may hold both; lanes keep program order
		case speculable(y, x, f) && yd&liveIn[x.in.target] == 0:
			return 0, false // harmless where x goes: y may move above x
		}
		return 1, true
	}
	if y.in.IsJump() && terms[x.blk] == y {
		return 0, true // a block's instructions come no later than its jump
	}
	return 0, false
}

// baseReg is the register a load or store addresses memory through.
func baseReg(in *insn) (uint8, bool) {
	switch {
	case isStore(in):
		return in.Dst, true
	case in.Class() == hxdp.ClassLDX || in.Op == hxdp.OpLoad48:
		return in.Src, true
	}
	return 0, false
}

// apart says two accesses through one value of one register touch no
// common byte: their offsets from it say so.
func apart(x, y *node) bool {
	rx, okx := baseReg(x.in)
	ry, oky := baseReg(y.in)
	if !okx || !oky || rx != ry || x.base != y.base {
		return false
	}
	a, b := int(x.in.Off), int(y.in.Off)
	return a+x.in.Size() <= b || b+y.in.Size() <= a
}

// speculable says instruction y may run above the jump br, on a path it
// was not written on: it computes a register, or it loads through a
// register that holds, already at br, a pointer it may surely read there
// (a stack slot, the context, a map value known not NULL, packet bytes
// the packet surely holds at br).
func speculable(y, br *node, f *facts) bool {
	in := y.in
	switch cls := in.Class(); {
	case in.IsJump() || in.IsCall() || isStore(in):
		return false
	case cls == hxdp.ClassALU || cls == hxdp.ClassALU64 || in.Op == hxdp.OpLdImm64:
		return true
	case cls != hxdp.ClassLDX && in.Op != hxdp.OpLoad48:
		return false
	}
	s := f.before[br.in]
	if s == nil || br.vers[in.Src] != y.base {
		return false // the address is computed after br
	}
	a := accessOf(s.regs[in.Src], in.Off, in.Size())
	end := a.hi + int64(a.size)
	switch a.k {
	case kStack:
		return a.lo == a.hi && a.lo >= -hxdp.StackBytes && end <= 0
	case kCtx:
		return true
	case kPkt:
		return a.lo >= 0 && end <= s.minLen
	case kMeta:
		return a.lo >= 0 && end <= hxdp.MetaBytes
	case kMapVal:
		return a.lo >= 0 && end <= int64(f.maps[a.id].ValueBytes)
	}
	return false
}

// memConflict says two instructions touch memory so that one row cannot
// hold both and their order must stay: a store and an access that may
// overlap it, two helper calls, or a call and an access the helper may
// touch.
func memConflict(x, y *insn, f *facts) bool {
	xm, xok := f.mem[x]
	ym, yok := f.mem[y]
	switch {
	case x.IsCall() && y.IsCall():
		return true
	case x.IsCall():
		return yok && callTouches(x, y, ym, f)
	case y.IsCall():
		return xok && callTouches(y, x, xm, f)
	case !xok || !yok || (!isStore(x) && !isStore(y)):
		return false
	}
	return xm.overlaps(ym)
}

// callTouches says a helper call may touch what the access a (of
// instruction in) touches: a lookup reads its key; adjust_head moves the
// packet, its metadata and the context's pointers; a spin lock orders
// the values of its map; bpf_redirect_map and bpf_get_prandom_u32 read no
// memory of the program's.
func callTouches(call, in *insn, a access, f *facts) bool {
	if a.k == kTop {
		return true
	}
	s := f.before[call]
	if s == nil {
		return true
	}
	switch call.Imm {
	case hxdp.HelperMapLookup:
		if !isStore(in) {
			return false
		}
		key, m := s.regs[2], s.regs[1]
		if key.k != kStack || m.k != kMap {
			return a.k == kStack
		}
		keyAt := access{k: kStack, lo: key.lo, hi: key.hi, size: f.maps[m.id].KeyBytes}
		return keyAt.overlaps(a)
	case hxdp.HelperAdjustHead:
		return a.k == kPkt || a.k == kPktEnd || a.k == kMeta || a.k == kCtx
	case hxdp.HelperSpinLock, hxdp.HelperSpinUnlock:
		lock := s.regs[1]
		isVal := a.k == kMapVal || a.k == kMapValOrNull
		return isVal && (lock.k != kMapVal || lock.id == a.id)
	case hxdp.HelperRedirect, hxdp.HelperRandom:
		return false
	}
	return true
}

// regLiveIn is the registers live on entry of each block.
func regLiveIn(p *program) map[*block]uint16 {
	in := map[*block]uint16{}
	for changed := true; changed; {
		changed = false
		for i := len(p.blocks) - 1; i >= 0; i-- {
			b := p.blocks[i]
			var l uint16
			for _, s := range b.succs() {
				l |= in[s]
			}
			for j := len(b.ins) - 1; j >= 0; j-- {
				use, def := regUse(b.ins[j])
				l = l&^def | use
			}
			if l|in[b] != in[b] {
				in[b] |= l
				changed = true
			}
		}
	}
	return in
}

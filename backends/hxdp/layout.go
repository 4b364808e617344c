package hxdp

// layout orders the blocks for the ROM: a jump to a block that only
// jumps on goes straight on; a block that ends in a jump to a block only
// it reaches is followed by that block, so the jump goes; a block that
// falls into a block only it reaches takes that block in. It returns the
// jumps it removed.
func layout(p *program) (int, error) {
	n := thread(p)
	n += chain(p)
	merge(p)
	p.prune()
	return n, nil
}

// thread retargets jumps to empty blocks and to blocks that are only an
// unconditional jump, and fall-throughs into empty blocks. (A
// fall-through into a block that only jumps stays: the jump's target may
// already be fallen into by the block before it.)
func thread(p *program) int {
	n := 0
	hop := func(b *block, jumps bool) *block {
		for i := 0; i < len(p.blocks); i++ { // a cycle of empty blocks is a loop: stop
			switch {
			case len(b.ins) == 0 && b.next != nil:
				b = b.next
			case jumps && len(b.ins) == 1 && b.ins[0].ja():
				b = b.ins[0].target
			default:
				return b
			}
		}
		return b
	}
	for _, b := range p.blocks {
		if t := b.term(); t != nil && !t.IsExit() {
			if h := hop(t.target, true); h != t.target {
				t.target = h
				n++
			}
		}
		if b.next != nil {
			b.next = hop(b.next, false)
		}
	}
	p.prune()
	return n
}

// chain lays out chains of blocks linked by fall-throughs, each chain
// that ends in a jump followed, when it can be, by the chain the jump
// goes to (whose head no other block reaches); such a jump becomes a
// fall-through.
func chain(p *program) int {
	preds := p.preds()
	var heads []*block // the blocks no block falls into, in order
	for _, b := range p.blocks {
		if !fallenInto(p, b) {
			heads = append(heads, b)
		}
	}
	placed := map[*block]bool{}
	var order []*block
	n := 0
	var lay func(h *block)
	lay = func(h *block) {
		var last *block
		for c := h; c != nil && !placed[c]; c = c.next {
			placed[c] = true
			order = append(order, c)
			last = c
		}
		t := last.term()
		if t == nil || !t.ja() || placed[t.target] || len(preds[t.target]) != 1 || fallenInto(p, t.target) {
			return
		}
		// The jump's target comes next: fall through to it.
		last.ins = last.ins[:len(last.ins)-1]
		last.next = t.target
		n++
		lay(t.target)
	}
	for _, h := range heads {
		if !placed[h] {
			lay(h)
		}
	}
	for _, b := range p.blocks { // blocks on a fall-through cycle (a loop)
		if !placed[b] {
			lay(b)
		}
	}
	p.blocks = order
	p.renumber()
	return n
}

// fallenInto says some block falls through into b.
func fallenInto(p *program, b *block) bool {
	for _, x := range p.blocks {
		if x.next == b {
			return true
		}
	}
	return false
}

// merge joins a block without a jump to the block it falls into when no
// other block reaches that one.
func merge(p *program) {
	for changed := true; changed; {
		changed = false
		preds := p.preds()
		for _, b := range p.blocks {
			nx := b.next
			if b.term() != nil || nx == nil || nx == b || len(preds[nx]) != 1 || nx == p.blocks[0] {
				continue
			}
			b.ins = append(b.ins, nx.ins...)
			b.next = nx.next
			nx.ins, nx.next = nil, nil
			// nx is now unreachable (its only predecessor took it in).
			p.prune()
			changed = true
			break
		}
	}
}

// Ensure the layout invariant the ROM needs: a block's fall-through is
// the block laid out after it. place builds the order from the
// fall-through chains, so it holds; layoutOK checks it.
func layoutOK(p *program) bool {
	for i, b := range p.blocks {
		if b.next != nil && (i+1 >= len(p.blocks) || p.blocks[i+1] != b.next) {
			return false
		}
	}
	return true
}

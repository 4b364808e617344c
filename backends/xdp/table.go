package xdp

import (
	"fmt"
	"sort"

	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/ir"
)

// Tables. An entry's value is {u32 action, u32 rank, action data}: the
// action's id (its place in the table's list, from 1; 0 in the default
// map means the default the program declares), the rank a ternary table
// orders entries by, and the data in host order at per-action offsets.
//
//   - exact keys: a HASH map from the keys packed big-endian;
//   - one lpm key after exact ones: an LPM_TRIE over {prefix length, the
//     exact keys, the lpm key left-aligned}; its prefix length counts the
//     exact keys' bytes in full;
//   - anything else (ternary, range, optional, several lpm): tuple-space
//     search. The control plane keeps the distinct masks of the entries in
//     an ARRAY map (ranges expanded into prefixes, each a mask), and every
//     entry in a HASH map under {mask index, key & mask}; the program looks
//     the key up under every mask and keeps the hit of smallest rank, the
//     rank being the entry's place in P4's order (priority, then the
//     longest lpm prefix, then the first installed);
//   - const entries: compiled into the code, checked in that order, and
//     tuple-space maps as for ternary keys, empty until the control plane
//     adds an entry: it then writes the const entries there too, and the
//     maps decide;
//   - no keys: only the default action.
//
// A default map (an ARRAY of one value) holds the default action, so the
// control plane can change it.

type tableInfo struct {
	t         *ir.Table
	name      string // Control.table
	kind      string
	acts      []*ir.ActionRef // the actions, the declared default last if not listed
	ids       map[*ir.Action]int
	layout    kernel.Table
	params    map[*ir.Action][]kernel.Param
	keyBytes  int // of the packed keys, without the 4-byte prefix or mask index
	keyArray  int // the C array holding them
	dataWords int
	prefix    string // of the C names of its types and maps
}

const (
	defaultTableSize = 1024
	maxMasks         = 64
)

func tableKind(t *ir.Table) string {
	switch {
	case len(t.Entries) > 0:
		return kernel.TableConst
	case len(t.Keys) == 0:
		return kernel.TableKeyless
	}
	exact, lpm := 0, 0
	for _, k := range t.Keys {
		switch k.Match {
		case ir.MatchExact:
			exact++
		case ir.MatchLPM:
			lpm++
		}
	}
	switch {
	case exact == len(t.Keys):
		return kernel.TableExact
	case lpm == 1 && exact == len(t.Keys)-1:
		return kernel.TableLPM
	}
	return kernel.TableTernary
}

// tss says whether the table looks its entries up by tuple-space search.
func (ti *tableInfo) tss() bool {
	return ti.kind == kernel.TableTernary || ti.kind == kernel.TableConst
}

func (g *gen) tableInfo(t *ir.Table) *tableInfo {
	return g.tables[t]
}

// planTable lays out a table's maps and declares them.
func (g *gen) planTable(c *ir.Control, t *ir.Table) {
	ti := &tableInfo{t: t, name: c.Name + "." + t.Name, kind: tableKind(t), ids: map[*ir.Action]int{},
		params: map[*ir.Action][]kernel.Param{}}
	g.tables[t] = ti
	ti.acts = append(ti.acts, t.Actions...)
	if t.Default != nil && !listed(t.Actions, t.Default.Action) {
		ti.acts = append(ti.acts, &ir.ActionRef{Action: t.Default.Action})
	}
	dataBytes := 0
	for i, ar := range ti.acts {
		ti.ids[ar.Action] = i + 1
		off := 0
		var ps []kernel.Param
		for _, p := range ar.Action.Data() {
			w := width(p.Type)
			if w == 0 || w > 64 {
				g.fail(p.Span, "action data %s: only scalars of 1 to 64 bits are supported by the xdp target", p.Name)
				continue
			}
			cb := cellBytes(w)
			off = (off + cb - 1) / cb * cb
			ps = append(ps, kernel.Param{Name: p.Name, WidthBits: w, Offset: 8 + off, Bytes: cb})
			off += cb
		}
		ti.params[ar.Action] = ps
		dataBytes = max(dataBytes, off)
		ti.layout.Actions = append(ti.layout.Actions, kernel.Action{Name: ar.Action.Name, ID: i + 1, Data: ps})
	}
	ti.dataWords = max(1, (dataBytes+7)/8)
	ti.layout.Name, ti.layout.Kind = ti.name, ti.kind
	ti.layout.ValueBytes = 8 + 8*ti.dataWords
	ti.layout.Size = t.Size
	if ti.layout.Size == 0 {
		ti.layout.Size = defaultTableSize
	}
	g.planKeys(ti)
	prefix := "tbl_" + sanitize(c.Name+"_"+t.Name)
	ti.prefix = prefix
	fmt.Fprintf(&g.helpers, "struct %s_val { u32 action; u32 rank; u64 data[%d]; };\n", prefix, ti.dataWords)
	if ti.kind != kernel.TableKeyless {
		g.tableMaps(ti, prefix)
	}
	if ti.kind != kernel.TableConst {
		ti.layout.Default = prefix + "_def"
		g.defineMap(ti.layout.Default, "BPF_MAP_TYPE_ARRAY", "u32", "struct "+prefix+"_val", 1, "", 4, ti.layout.ValueBytes,
			"table "+ti.name+" default action")
	}
	g.layout.Tables = append(g.layout.Tables, ti.layout)
}

func listed(refs []*ir.ActionRef, a *ir.Action) bool {
	for _, r := range refs {
		if r.Action == a {
			return true
		}
	}
	return false
}

// planKeys places the keys in the packed key.
func (g *gen) planKeys(ti *tableInfo) {
	head := 0
	if ti.kind == kernel.TableLPM || ti.tss() {
		head = 4
	}
	keys := ti.t.Keys
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	if ti.kind == kernel.TableLPM { // the lpm key last: a trie matches a prefix of the whole key
		sort.SliceStable(order, func(a, b int) bool {
			return keys[order[a]].Match != ir.MatchLPM && keys[order[b]].Match == ir.MatchLPM
		})
	}
	placed := make([]kernel.Key, len(keys))
	off := 0
	for _, i := range order {
		k := keys[i]
		w := width(k.Expr.Type())
		if w == 0 || w > 64 {
			g.fail(k.Expr.Span(), "table %s: key %s: only keys of 1 to 64 bits are supported by the xdp target", ti.t.Name, k.Name)
			w = 8
		}
		nb := (w + 7) / 8
		placed[i] = kernel.Key{Name: k.Name, Match: k.Match, WidthBits: w, Offset: head + off, Bytes: nb}
		off += nb
	}
	ti.layout.Keys = placed
	ti.keyBytes = max(off, 1)
	ti.keyArray = ti.keyBytes
	if head > 0 {
		// After a u32 the array fills the struct to a multiple of 4: no
		// padding byte, whose value C leaves open, in a hashed key.
		ti.keyArray = (ti.keyBytes + 3) / 4 * 4
	}
	ti.layout.KeyBytes = head + ti.keyArray
}

// tableMaps declares the maps of a table with entries.
func (g *gen) tableMaps(ti *tableInfo, prefix string) {
	ti.layout.Map = prefix
	holds := "table " + ti.name
	val := "struct " + prefix + "_val"
	switch ti.kind {
	case kernel.TableExact:
		fmt.Fprintf(&g.helpers, "struct %s_key { u8 b[%d]; };\n", prefix, ti.keyBytes)
		g.defineMap(prefix, "BPF_MAP_TYPE_HASH", "struct "+prefix+"_key", val, ti.layout.Size, "", ti.layout.KeyBytes, ti.layout.ValueBytes, holds)
	case kernel.TableLPM:
		fmt.Fprintf(&g.helpers, "struct %s_key { u32 prefixlen; u8 b[%d]; };\n", prefix, ti.keyArray)
		g.defineMap(prefix, "BPF_MAP_TYPE_LPM_TRIE", "struct "+prefix+"_key", val, ti.layout.Size, "BPF_F_NO_PREALLOC", ti.layout.KeyBytes, ti.layout.ValueBytes, holds)
	case kernel.TableTernary, kernel.TableConst:
		fmt.Fprintf(&g.helpers, "struct %s_key { u32 mask; u8 b[%d]; };\n", prefix, ti.keyArray)
		fmt.Fprintf(&g.helpers, "struct %s_mask { u32 used; u8 m[%d]; };\n", prefix, ti.keyArray)
		// Ranges expand into several prefixes each: room for them.
		g.defineMap(prefix, "BPF_MAP_TYPE_HASH", "struct "+prefix+"_key", val, 8*ti.layout.Size, "", ti.layout.KeyBytes, ti.layout.ValueBytes, holds)
		ti.layout.Masks, ti.layout.MaxMasks = prefix+"_masks", maxMasks
		g.defineMap(ti.layout.Masks, "BPF_MAP_TYPE_ARRAY", "u32", "struct "+prefix+"_mask", maxMasks, "", 4, 4+ti.keyArray, holds+" masks")
	}
}

// packKey writes the key's value v (w bits) big-endian into nb bytes at
// byte off of array b, left-aligned when left (an lpm key).
func (g *gen) packKey(b string, off, nb, w int, v string, left bool) {
	if left && nb*8 > w {
		v = fmt.Sprintf("(%s << %d)", v, nb*8-w)
	}
	switch nb {
	case 1:
		g.line("%s[%d] = (u8)%s;", b, off, v)
	case 2, 4, 8:
		g.line("{ u%d t_ = __builtin_bswap%d((u%d)%s); __builtin_memcpy(&%s[%d], &t_, %d); }", nb*8, nb*8, nb*8, v, b, off, nb)
	default:
		for i := 0; i < nb; i++ {
			g.line("%s[%d] = (u8)(%s >> %d);", b, off+i, v, 8*(nb-1-i))
		}
	}
}

// applyTable writes a table's lookup and the action it chooses. hit and
// ran, when not empty, are variables set to whether an entry matched and
// to the id of the action that ran.
func (g *gen) applyTable(t *ir.Table, hit, ran string) {
	ti := g.tables[t]
	if ti == nil {
		g.fail(t.Span, "table %s is not in a control the xdp target compiles", t.Name)
		return
	}
	g.noHelper(t.Span, "a table")
	n := g.label()
	prefix := ti.prefix
	valType := "struct " + prefix + "_val"
	g.line("{ /* apply %s */", ti.name)
	g.ind++
	g.line("%s cv_ = {}; %s *v_ = 0; u8 hit_ = 0;", valType, valType)
	keys := make([]string, len(t.Keys))
	for i, k := range t.Keys {
		keys[i] = fmt.Sprintf("key%d_%d", n, i)
		g.line("u64 %s = %s;", keys[i], g.expr(k.Expr))
	}
	switch ti.kind {
	case kernel.TableExact:
		g.line("struct %s_key k_ = {};", prefix)
		for i, k := range ti.layout.Keys {
			g.packKey("k_.b", k.Offset, k.Bytes, k.WidthBits, keys[i], false)
		}
		g.line("v_ = bpf_map_lookup_elem(&%s, &k_);", prefix)
	case kernel.TableLPM:
		g.line("struct %s_key k_ = { .prefixlen = %d };", prefix, 8*ti.keyBytes)
		for i, k := range ti.layout.Keys {
			g.packKey("k_.b", k.Offset-4, k.Bytes, k.WidthBits, keys[i], k.Match == ir.MatchLPM)
		}
		g.line("v_ = bpf_map_lookup_elem(&%s, &k_);", prefix)
	case kernel.TableTernary:
		g.ternaryLookup(ti, prefix, keys)
	case kernel.TableConst:
		// The entries added at run time go, with the const ones, into the
		// tuple-space maps, which then decide; until then the code does.
		g.ternaryLookup(ti, prefix, keys)
		g.line("{ u32 z_ = 0; struct %s_mask *m0_ = bpf_map_lookup_elem(&%s, &z_); if (!m0_ || !m0_->used) {", prefix, ti.layout.Masks)
		g.ind++
		g.constEntries(ti, keys)
		g.ind--
		g.line("} }")
	}
	g.line("if (v_) hit_ = 1;")
	if ti.kind != kernel.TableConst {
		g.line("if (!v_) { u32 z_ = 0; v_ = bpf_map_lookup_elem(&%s, &z_); }", ti.layout.Default)
		g.line("if (v_ && v_->action != 0) cv_ = *v_; else {")
	} else {
		g.line("if (v_) cv_ = *v_; else {")
	}
	g.ind++
	g.fillCall(ti, t.Default)
	g.ind--
	g.line("}")
	if hit != "" {
		g.line("%s = hit_;", hit)
	}
	if ran != "" {
		g.line("%s = cv_.action;", ran)
	}
	g.dispatch(ti)
	g.ind--
	g.line("}")
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// ternaryLookup writes tuple-space search: one lookup per mask in use,
// the hit of smallest rank kept.
func (g *gen) ternaryLookup(ti *tableInfo, prefix string, keys []string) {
	g.line("struct %s_key k_ = {};", prefix)
	for i, k := range ti.layout.Keys {
		g.packKey("k_.b", k.Offset-4, k.Bytes, k.WidthBits, keys[i], false)
	}
	// Unrolled by hand: the verifier takes a loop whose states repeat
	// (every iteration may miss) for an infinite one, and clang does not
	// unroll a loop whose counter's address a helper takes.
	done := fmt.Sprintf("tss%d", g.label())
	for i := 0; i < maxMasks; i++ {
		g.line("{ u32 i_ = %d;", i)
		g.ind++
		g.line("struct %s_mask *m_ = bpf_map_lookup_elem(&%s, &i_);", prefix, ti.layout.Masks)
		g.line("if (!m_ || !m_->used) goto %s;", done)
		g.line("struct %s_key mk_ = { .mask = i_ };", prefix)
		for j := 0; j < ti.keyBytes; j++ {
			g.line("mk_.b[%d] = k_.b[%d] & m_->m[%d];", j, j, j)
		}
		g.line("struct %s_val *e_ = bpf_map_lookup_elem(&%s, &mk_);", prefix, prefix)
		g.line("if (e_ && (!v_ || e_->rank < v_->rank)) v_ = e_;")
		g.ind--
		g.line("}")
	}
	g.line("%s: ;", done)
}

// constEntries writes a table's const entries as comparisons in P4's
// order; the first that matches is the entry.
func (g *gen) constEntries(ti *tableInfo, keys []string) {
	t := ti.t
	lpm := -1
	for i, k := range t.Keys {
		if k.Match == ir.MatchLPM {
			lpm = i
		}
	}
	entries := append([]*ir.Entry(nil), t.Entries...)
	order := map[*ir.Entry]int{}
	for i, e := range entries {
		order[e] = i
	}
	prefixLen := func(e *ir.Entry) int {
		if lpm < 0 {
			return 0
		}
		k := e.Keys[lpm]
		switch k.Kind {
		case ir.KeysetMask:
			return onesCount(k.Mask)
		case ir.KeysetExact:
			return width(t.Keys[lpm].Expr.Type())
		}
		return 0
	}
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		if pa, pb := prefixLen(a), prefixLen(b); pa != pb {
			return pa > pb
		}
		return order[a] < order[b]
	})
	for _, e := range entries {
		cond := "1"
		for i, k := range e.Keys {
			if i >= len(keys) {
				break
			}
			if c := keysetCond(g, keys[i], k); c != "" {
				cond += " && " + c
			}
		}
		g.line("if (!v_ && %s) {", cond)
		g.ind++
		g.fillCall(ti, e.Action)
		g.line("v_ = &cv_;")
		g.ind--
		g.line("}")
	}
}

func keysetCond(g *gen, k string, ks *ir.Keyset) string {
	switch ks.Kind {
	case ir.KeysetExact:
		return fmt.Sprintf("%s == 0x%sULL", k, ks.Value.Text(16))
	case ir.KeysetMask:
		return fmt.Sprintf("(%s & 0x%sULL) == (0x%sULL & 0x%sULL)", k, ks.Mask.Text(16), ks.Value.Text(16), ks.Mask.Text(16))
	case ir.KeysetRange:
		return fmt.Sprintf("%s >= 0x%sULL && %s <= 0x%sULL", k, ks.Value.Text(16), k, ks.Hi.Text(16))
	case ir.KeysetValueSet:
		return g.valueSetHas(ks.ValueSet, k)
	}
	return ""
}

func onesCount(m interface{ Bit(int) uint }) int {
	n := 0
	for i := 0; i < 64; i++ {
		n += int(m.Bit(i))
	}
	return n
}

// fillCall writes an action call of the program (a const entry's, the
// declared default) into cv_: its id and constant data.
func (g *gen) fillCall(ti *tableInfo, call *ir.ActionCall) {
	if call == nil {
		return // no default action: cv_.action stays 0, no action runs
	}
	g.line("cv_.action = %d;", ti.ids[call.Action])
	ps := ti.params[call.Action]
	k := 0
	for i, p := range call.Action.Params {
		if p.Dir != ir.DirNone {
			continue
		}
		if k < len(ps) && i < len(call.Args) {
			v := g.expr(call.Args[i])
			g.line("*(%s *)((u8 *)&cv_ + %d) = %s;", ctype(ps[k].WidthBits), ps[k].Offset, v)
		}
		k++
	}
}

// dispatch runs the action cv_ names, its data from cv_.
func (g *gen) dispatch(ti *tableInfo) {
	for i, ar := range ti.acts {
		a := ar.Action
		if i == 0 {
			g.line("if (cv_.action == %d) {", ti.ids[a])
		} else {
			g.line("} else if (cv_.action == %d) {", ti.ids[a])
		}
		g.ind++
		k, d := 0, 0
		ps := ti.params[a]
		var back []func() // the out and inout arguments bound in the actions list, written back
		for _, p := range a.Params {
			if p.Dir == ir.DirNone {
				if d < len(ps) {
					g.line("%s %s = *(%s *)((u8 *)&cv_ + %d);", g.typeName(p.Type, p.Span), g.varName(p), ctype(ps[d].WidthBits), ps[d].Offset)
				}
				d++
				continue
			}
			if k < len(ar.Args) && ar.Args[k] != nil {
				g.line("%s %s = %s;", g.typeName(p.Type, p.Span), g.varName(p), g.expr(ar.Args[k]))
				if p.Dir == ir.DirOut || p.Dir == ir.DirInOut {
					dst, name := ar.Args[k], g.varName(p)
					back = append(back, func() { g.write(dst, name) })
				}
			} else {
				g.declare(p)
			}
			k++
		}
		exited := g.actionBody(a)
		for _, f := range back {
			f()
		}
		exited()
		g.ind--
	}
	if len(ti.acts) > 0 {
		g.line("}")
	}
}

// valueSetMap is the C name of a value_set's map.
func valueSetMap(vs *ir.ValueSet) string { return "vs_" + sanitize(vs.Name) }

// planValueSet declares a parser value_set's map: a HASH whose keys are
// the set's values (big-endian, as table keys), filled by the control
// plane (Machine.AddToValueSet).
func (g *gen) planValueSet(vs *ir.ValueSet) {
	w := width(vs.Elem)
	if w == 0 || w > 64 || vs.Size <= 0 {
		g.fail(vs.Span, "value_set %s: only sets of scalars of 1 to 64 bits are supported by the xdp target", vs.Name)
		return
	}
	nb := (w + 7) / 8
	name := valueSetMap(vs)
	fmt.Fprintf(&g.helpers, "struct %s_key { u8 b[%d]; };\n", name, nb)
	g.defineMap(name, "BPF_MAP_TYPE_HASH", "struct "+name+"_key", "u32", vs.Size, "", nb, 4, "value_set "+vs.Name)
	g.layout.ValueSets = append(g.layout.ValueSets, kernel.ValueSet{Name: vs.Name, Map: name, WidthBits: w, Bytes: nb, Size: vs.Size})
}

// valueSetHas writes the lookup of select value k (a C variable) in a
// value_set's map and returns the condition that it is there.
func (g *gen) valueSetHas(vs *ir.ValueSet, k string) string {
	w := width(vs.Elem)
	if w == 0 || w > 64 {
		return "0" // refused by planValueSet
	}
	nb := (w + 7) / 8
	name := valueSetMap(vs)
	in := fmt.Sprintf("vs%d", g.label())
	g.line("u8 %s = 0;", in)
	g.line("{")
	g.ind++
	g.line("struct %s_key k_ = {};", name)
	g.packKey("k_.b", 0, nb, w, k, false)
	g.line("if (bpf_map_lookup_elem(&%s, &k_)) %s = 1;", name, in)
	g.ind--
	g.line("}")
	return in
}

package lower

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/transform"
)

// Notes for the listing. The lowering is the last place that knows which
// P4 table, entry, action, field and register each part of the
// configuration came from; it writes that down as it goes, so that a
// person reviewing the configuration reads the program's names next to
// the bits, not container and CAM addresses alone.

// Listing returns the configuration in words with the program's names
// (menshen.txt beside menshen.conf).
func (r *Result) Listing() (string, error) {
	return r.Config.Listing(&r.Notes)
}

// value writes a P4 value of a field or parameter of width bits: an
// address or a MAC reads best in hex, to its width; a port, a TTL or a
// UDP port in decimal.
func value(v *big.Int, width int) string {
	if width <= 16 {
		return v.String()
	}
	return fmt.Sprintf("0x%0*s", (width+3)/4, v.Text(16))
}

// call writes an action with its data, as a table entry runs it.
func call(a *ir.Action, data []*big.Int) string {
	if a.Span.File == "" && strings.HasPrefix(a.Name, "the statements") {
		return a.Name
	}
	var args []string
	for i, p := range a.Data() {
		if i < len(data) && data[i] != nil {
			args = append(args, p.Name+"="+value(data[i], ir.WidthBits(p.Type)))
		}
	}
	return a.Name + "(" + strings.Join(args, ", ") + ")"
}

// matchText writes what one key of an entry matches, or "" for a key it
// ignores.
func matchText(k *ir.Key, m interp.Match) string {
	w := ir.WidthBits(k.Expr.Type())
	switch m.Kind {
	case interp.MatchExact:
		return k.Name + " == " + value(m.Value, w)
	case interp.MatchTernary:
		return k.Name + " == " + value(m.Value, w) + " &&& " + value(m.Mask, w)
	case interp.MatchLPM:
		return fmt.Sprintf("%s == %s/%d", k.Name, value(m.Value, w), m.PrefixLen)
	case interp.MatchRange:
		return k.Name + " in " + value(m.Value, w) + ".." + value(m.Hi, w)
	}
	return ""
}

// entryNote describes a table entry: which one (which), what it matches
// and what it runs.
func entryNote(t *ir.Table, which string, keys []interp.Match, a *ir.Action, data []*big.Int) string {
	var ms []string
	for i, m := range keys {
		if i < len(t.Keys) {
			if s := matchText(t.Keys[i], m); s != "" {
				ms = append(ms, s)
			}
		}
	}
	if len(ms) == 0 {
		ms = []string{"any key"}
	}
	return fmt.Sprintf("%s: %s -> %s", which, strings.Join(ms, ", "), call(a, data))
}

// guardNote says when a table is matched at all: the conditions on its
// path and the validity of the headers it uses, as fields equal to
// values.
func guardNote(guard []constraint) string {
	var cs []string
	seen := map[string]bool{}
	for _, g := range guard {
		s := fmt.Sprintf("%s == %s", g.p.field, value(g.value, g.p.width))
		if g.mask.Cmp(ones(g.p.width)) != 0 {
			s += " &&& " + value(g.mask, g.p.width)
		}
		if !seen[s] {
			seen[s] = true
			cs = append(cs, s)
		}
	}
	if len(cs) == 0 {
		return ""
	}
	return " (matched when " + strings.Join(cs, " and ") + ")"
}

// partName names what a node's table implements: a P4 table or
// statements of the apply block, and which part of it when it has more.
func partName(n *transform.Node, part, parts int) string {
	s := fmt.Sprintf("the statements at line %d", n.Span.Start.Line)
	if n.Table != nil {
		s = "table " + n.Table.Name
	}
	if parts > 1 {
		s += fmt.Sprintf(", part %d of %d", part+1, parts)
	}
	return s
}

// stageNote says which of a part's stages a sub-unit is, when it has
// more than one (an action whose ALUs span stages).
func stageNote(j, stages int) string {
	if stages < 2 {
		return ""
	}
	return fmt.Sprintf(", its stage %d of %d", j+1, stages)
}

// addNote adds a note to a list of notes for one thing (an action word
// several entries share), once.
func addNote(notes []string, i int, note string) []string {
	for len(notes) <= i {
		notes = append(notes, "")
	}
	switch {
	case notes[i] == "":
		notes[i] = note
	case !strings.Contains(" or "+notes[i]+" or ", " or "+note+" or "):
		notes[i] += " or " + note
	}
	return notes
}

// containerNames says what each container holds: the field (or the part
// of a wide one) it was placed for, or what the lowering took it for.
func (cs *containers) containerNames() map[int]string {
	out := map[int]string{}
	names := make([]string, 0, len(cs.fields))
	for n := range cs.fields {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := cs.fields[n]
		for _, c := range p.chunks {
			switch {
			case len(p.chunks) > 1:
				out[c.container] = fmt.Sprintf("%s bytes %d..%d", n, c.from, c.from+3)
			case p.width < 32:
				out[c.container] = fmt.Sprintf("%s, top %d bits", n, p.width)
			default:
				out[c.container] = n
			}
		}
	}
	for c, n := range cs.notes {
		out[c] = n
	}
	return out
}

// stateNames says which register each state word holds.
func stateNames(registers map[string]Cell) map[menshen.StateWord]string {
	out := map[menshen.StateWord]string{}
	for name, c := range registers {
		out[menshen.StateWord{Stage: c.Stage, Container: c.Container}] = name
	}
	return out
}

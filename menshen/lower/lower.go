// Package lower maps a compiled program onto the Menshen pipeline: it
// gives fields containers, folds the conditions that guard each table
// into the table's key, turns table entries into CAM entries, and turns
// actions (the synthesized ALUs in the stages allocation chose, and plain
// primitives) into VLIW action words. The result is a menshen.Config,
// which the menshen package writes as configuration entries.
//
// It is a package of its own so that menshen, the target description
// every phase reads, does not depend on the phases above it.
package lower

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/transform"
)

// Input is a compiled program and the entries to install.
type Input struct {
	backends.Compiled
	// Entries are installed with the configuration ("Control.table"
	// names, in installation order): Menshen's tables are part of it.
	Entries []interp.TableEntry
	// Tenant is the VLAN ID of the program's frames, 1 to 31 (0 cannot
	// hold a keyless table, §A.7).
	Tenant int
}

// Result is the configuration and where things ended up.
type Result struct {
	Config *menshen.Config
	// Registers maps each register to the ALU that holds its one cell.
	Registers map[string]Cell
	// Containers counts the containers used; Stages the stages the
	// tables take (the egress decision may take one after allocation's).
	Containers, Stages int
	// Notes name the P4 table, entry, action, field and register behind
	// each part of Config, for its listing (Listing).
	Notes menshen.Notes
}

// Cell is a stage's container ALU, whose state word holds a register.
type Cell struct {
	Stage     int `json:"stage"`
	Container int `json:"container"`
}

// Lower maps the program; a *backends.Error says what the target cannot
// do, and where.
func Lower(in Input) (*Result, error) {
	if in.Tenant < 1 || in.Tenant > 31 {
		return nil, fmt.Errorf("tenant %d: VLAN IDs 1 to 31 have tables of their own", in.Tenant)
	}
	if len(in.Program.Pipeline) == 0 || in.Program.Pipeline[0].Parser == nil {
		return nil, fmt.Errorf("the program has no parser: Menshen runs v1model programs")
	}
	lay, err := newLayout(in.Program.Pipeline[0].Parser)
	if err != nil {
		return nil, err
	}
	l := &lowering{in: in, lay: lay, cs: newContainers(lay), registers: map[string]Cell{},
		subUnits: map[int]int{}, portStage: -1, tableNotes: map[menshen.SubUnit]menshen.TableNotes{}}
	if err := checkRegisters(in.Program); err != nil {
		return nil, err
	}
	entries, err := groupEntries(in.Program, in.Ingress.Control, in.Entries)
	if err != nil {
		return nil, err
	}
	if err := l.placeStandardReads(); err != nil {
		return nil, err
	}
	if err := l.portAfterDrop(); err != nil {
		return nil, err
	}
	for _, n := range in.Ingress.Nodes {
		if err := l.node(n, entries[n.Table]); err != nil {
			return nil, err
		}
	}
	if l.deferPort {
		if err := l.egressTable(); err != nil {
			return nil, err
		}
	}
	cfg := &menshen.Config{Tenant: in.Tenant, Tables: l.tables}
	if cfg.Parse, cfg.Deparse, err = l.cs.maps(); err != nil {
		return nil, err
	}
	stages := 0
	for _, tb := range l.tables {
		stages = max(stages, tb.Stage+1)
	}
	notes := menshen.Notes{Containers: l.cs.containerNames(), Tables: l.tableNotes, State: stateNames(l.registers)}
	return &Result{Config: cfg, Registers: l.registers, Containers: l.cs.used(), Stages: stages, Notes: notes}, nil
}

// lowering is the state of one Lower call.
type lowering struct {
	in        Input
	lay       *layout
	cs        *containers
	registers map[string]Cell
	subUnits  map[int]int // the next free sub-unit of each stage
	tables    []menshen.Table
	// deferPort is set when a table may set the egress port after an
	// earlier one dropped the packet: then the port lives in its container
	// alone until a table after the last that sets it (portStage) decides
	// (egress.go).
	deferPort bool
	portStage int
	// tableNotes say what each sub-unit's table came from.
	tableNotes map[menshen.SubUnit]menshen.TableNotes
}

// placeStandardReads gives the standard metadata fields that keys and
// conditions read their containers before any action is lowered, so the
// actions that set them (the egress port) know to write them.
func (l *lowering) placeStandardReads() error {
	var visit func(e ir.Expr) error
	visit = func(e ir.Expr) error {
		switch e := e.(type) {
		case *ir.Member:
			if _, ok := stdField(e); ok {
				_, err := l.cs.place(e)
				return err
			}
		case *ir.Binary:
			if err := visit(e.X); err != nil {
				return err
			}
			return visit(e.Y)
		case *ir.Unary:
			return visit(e.X)
		}
		return nil
	}
	for _, n := range l.in.Ingress.Nodes {
		if n.Kind == transform.TableNode {
			for _, k := range n.Table.Keys {
				if err := visit(k.Expr); err != nil {
					return err
				}
			}
		}
		for _, c := range l.in.Ingress.Path(n) {
			if c.Expr != nil {
				if err := visit(c.Expr); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkRegisters refuses registers of more than one cell: each container
// ALU reads only word 0 of its memory (§A.12).
func checkRegisters(p *ir.Program) error {
	check := func(insts []*ir.Instance) error {
		for _, inst := range insts {
			if inst.Type.Name != "register" {
				continue
			}
			size := 0
			if len(inst.Args) > 0 {
				if c, ok := inst.Args[0].(*ir.Const); ok {
					size = int(c.Value.Int64())
				}
			}
			if size != 1 {
				return errorAt(inst.Span, "register %s has %d cells; a Menshen ALU holds one 32-bit word", inst.Name, size)
			}
			if w := ir.WidthBits(inst.Type.Args[0]); w != 32 {
				return errorAt(inst.Span, "register %s holds %d-bit values; Menshen's state words are 32 bits", inst.Name, w)
			}
		}
		return nil
	}
	if err := check(p.Instances); err != nil {
		return err
	}
	for _, c := range p.Controls {
		if err := check(c.Instances); err != nil {
			return err
		}
	}
	return nil
}

// node lowers one node of the ingress graph: a table (or a run of
// statements, a keyless table) in every stage allocation gave it.
// Gateways have no table: their conditions join the keys of the tables
// they guard.
func (l *lowering) node(n *transform.Node, entries []entry) error {
	if n.Kind == transform.GatewayNode {
		return nil
	}
	t := l.in.Base + n.Order
	parts, alus := l.in.Placement.Parts[t], l.in.Placement.ALUs[t]
	guard, err := l.guard(n)
	if err != nil {
		return err
	}
	var actions []*ir.Action
	var keys []*ir.Key
	if n.Kind == transform.TableNode {
		actions, keys = n.Actions(), n.Table.Keys
	} else {
		actions = []*ir.Action{{Name: fmt.Sprintf("the statements at line %d", n.Span.Start.Line), Body: n.Stmts}}
	}
	m, err := l.matcher(n, keys, guard, entries)
	if err != nil {
		return err
	}
	rows, err := l.rows(n, m, entries, actions)
	if err != nil {
		return err
	}
	// Entries that cannot overlap (exact keys, no default entry) spread
	// over the table's parts; others stay in the first part's CAM, whose
	// lowest address wins: parts in other sub-units would all hit, where
	// a later part should only see an earlier one's misses.
	per := len(rows)
	if disjoint(n) {
		per = (len(rows) + len(parts) - 1) / max(len(parts), 1)
	}
	for i, stages := range parts {
		lo, hi := min(i*per, len(rows)), min((i+1)*per, len(rows))
		if lo == hi && i > 0 {
			continue // an empty part needs no sub-unit
		}
		name := partName(n, i, len(parts))
		if err := l.part(n, name, guardNote(guard), m, rows[lo:hi], actions, stages, alus[i]); err != nil {
			return err
		}
	}
	return nil
}

// disjoint reports whether no two entries of a node's table can match
// one packet: exact keys only, and no default action entry.
func disjoint(n *transform.Node) bool {
	if n.Kind != transform.TableNode || len(n.Table.Keys) == 0 {
		return false
	}
	for _, k := range n.Table.Keys {
		if k.Match != ir.MatchExact {
			return false
		}
	}
	return n.Table.Default == nil || len(n.Table.Default.Action.Body) == 0
}

// part emits one part of a table: in each of its stages a sub-unit with
// the part's entries, whose action words hold what each action does in
// that stage. name says what the part implements and guard when it is
// matched, for the notes.
func (l *lowering) part(n *transform.Node, name, guard string, m *matcher, rows []row, actions []*ir.Action, stages []int, alus [][]int) error {
	steps := make([][]step, len(actions)) // per action, per stage of the part
	for k, a := range actions {
		var err error
		steps[k], err = l.action(a, stages, alus[k])
		if err != nil {
			return err
		}
	}
	for j, s := range stages {
		u := l.subUnits[s]
		if u >= 8 {
			return errorAt(n.Span, "stage %d needs more than the 8 match sub-units it has", s)
		}
		l.subUnits[s]++
		tb := menshen.Table{Stage: s, Sub: u, Key: m.containers, Ignore: m.ignore}
		notes := menshen.TableNotes{Name: name + stageNote(j, len(stages)) + guard}
		words := map[string]int{}
		for _, r := range rows {
			act, err := steps[r.action][j].word(r.data)
			if err != nil {
				return errorAt(n.Span, "table %s: %v", nodeName(n), err)
			}
			key := fmt.Sprint(act)
			idx, ok := words[key]
			if !ok {
				idx = len(tb.Actions)
				words[key] = idx
				tb.Actions = append(tb.Actions, act)
			}
			tb.Entries = append(tb.Entries, menshen.Entry{Key: r.key, Action: idx})
			notes.Entries = append(notes.Entries, r.note)
			notes.Actions = addNote(notes.Actions, idx, call(actions[r.action], r.data))
		}
		if len(tb.Entries) > 256 {
			return errorAt(n.Span, "table %s needs %d CAM entries in stage %d; the CAM holds 256", nodeName(n), len(tb.Entries), s)
		}
		l.tables = append(l.tables, tb)
		l.tableNotes[menshen.SubUnit{Stage: s, Sub: u}] = notes
	}
	return nil
}

func nodeName(n *transform.Node) string {
	if n.Table != nil {
		return n.Table.Name
	}
	return fmt.Sprintf("for the statements at line %d", n.Span.Start.Line)
}

// what names an action in a message: "action NAME", or the statements a
// run of apply-block statements stands for.
func what(a *ir.Action) string {
	if a.Span.File == "" && strings.HasPrefix(a.Name, "the statements") {
		return a.Name
	}
	return "action " + a.Name
}

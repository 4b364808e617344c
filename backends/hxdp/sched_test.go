package hxdp

import (
	"testing"

	"github.com/p4hls/p4hls/hxdp"
)

func exitImm(a int32) *insn { return I(hxdp.OpExitImm, 0, 0, 0, a) }

func mustSchedule(t *testing.T, p *program) *schedule {
	t.Helper()
	s, err := scheduleProgram(p, false)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPacking: five independent moves and an exit that reads nothing
// fill a row of 4 and start a second: 2 rows.
func TestPacking(t *testing.T) {
	p := build(movi(2, 1), movi(3, 2), movi(4, 3), movi(5, 4), movi(6, 5), exitImm(2))
	if s := mustSchedule(t, p); len(s.rows) != 2 {
		t.Errorf("%d rows, want 2", len(s.rows))
	}
}

// TestChain: each instruction reads the one before (and the exit reads
// r0): one row each, 5 rows.
func TestChain(t *testing.T) {
	p := build(movi(2, 1), addi(2, 1), addi(2, 1), movr(0, 2), exit())
	if s := mustSchedule(t, p); len(s.rows) != 5 {
		t.Errorf("%d rows, want 5", len(s.rows))
	}
}

// TestParallelBranching: two conditional jumps of a trace and the exit
// after them share row 0, in program order by lane; on the core both
// jumps are taken (r2 and r3 are 0) and the first, in lane 0, wins.
func TestParallelBranching(t *testing.T) {
	p := build(
		jeqi(2, 0, 3), // 0: if r2 == 0 goto 3
		jeqi(3, 0, 4), // 1: if r3 == 0 goto 4
		exitImm(0),    // 2
		exitImm(1),    // 3
		exitImm(2))    // 4
	s := mustSchedule(t, p)
	row0 := s.rows[0]
	if row0[0] == nil || row0[0].Imm != 0 || !row0[0].cond() || row0[1] == nil || row0[1].Dst != 3 || row0[2] == nil || !row0[2].IsExit() {
		t.Fatalf("row 0 is %v; want the two jumps, in order, and exit 0", row0)
	}
	rom, err := encode(s)
	if err != nil {
		t.Fatal(err)
	}
	c, err := hxdp.New(rom, hxdp.Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(hxdp.Input{Data: make([]byte, hxdp.MinFrame)})
	if err != nil || res.Action != 1 || res.Cycles != 2 {
		t.Errorf("action %d in %d cycles (%v); want 1 in 2: lane 0's jump wins", res.Action, res.Cycles, err)
	}
}

// TestCodeMotion: an instruction after a jump may move up to the jump's
// row when its register is dead where the jump goes (r6), not when it is
// live there (r5, read at the target).
func TestCodeMotion(t *testing.T) {
	p := build(
		ldxw(2, 1, 12),      // 0
		jeqi(2, 7, 6),       // 1: if r2 == 7 goto 6
		movi(5, 9),          // 2
		movi(6, 1),          // 3
		I(0x0f, 5, 6, 0, 0), // 4: r5 += r6
		exitImm(0),          // 5
		movr(0, 5),          // 6: reads r5
		exit())              // 7
	s := mustSchedule(t, p)
	br, r5, r6 := p.blocks[0].ins[1], p.blocks[1].ins[0], p.blocks[1].ins[1]
	if s.rowOf[r6] > s.rowOf[br] {
		t.Errorf("r6 = 1 is in row %d, the jump in %d: want it moved up", s.rowOf[r6], s.rowOf[br])
	}
	if s.rowOf[r5] <= s.rowOf[br] {
		t.Errorf("r5 = 9 is in row %d, the jump in %d: r5 is live where the jump goes, it must follow", s.rowOf[r5], s.rowOf[br])
	}
}

// TestNoSpeculativeNull: a load through a lookup's result stays below
// the jump that checks it for NULL (above it, the pointer may be NULL);
// a load from the stack moves up.
func TestNoSpeculativeNull(t *testing.T) {
	m := I(hxdp.OpLdImm64, 1, hxdp.PseudoMapFD, 0, 0)
	p := build(
		I(0x62, 10, 0, -4, 0), movr(2, 10), addi(2, -4), m, // key 0 at r10 - 4
		I(hxdp.OpCall, 0, 0, 0, hxdp.HelperMapLookup), // 4
		jeqi(0, 0, 9),         // 5: if r0 == 0 goto 9
		I(0x79, 3, 0, 0, 0),   // 6: r3 = *(u64 *)(r0 + 0)
		I(0x61, 4, 10, -4, 0), // 7: r4 = *(u32 *)(r10 - 4)
		exitImm(2),            // 8
		exitImm(1))            // 9
	p.maps = []hxdp.Map{{ID: 0, Name: "h", Type: "hash", KeyBytes: 4, ValueBytes: 8, MaxEntries: 4}}
	s := mustSchedule(t, p)
	br, val, stk := p.blocks[0].ins[5], p.blocks[1].ins[0], p.blocks[1].ins[1]
	if s.rowOf[val] <= s.rowOf[br] {
		t.Errorf("the load through r0 is in row %d, its NULL check in %d: it must follow", s.rowOf[val], s.rowOf[br])
	}
	if s.rowOf[stk] > s.rowOf[br] {
		t.Errorf("the stack load is in row %d, the jump in %d: want it moved up", s.rowOf[stk], s.rowOf[br])
	}
}

// TestJumpToNext: a conditional jump to the block it falls through to (the
// passes leave one once the code between goes, as in me3_tables's prog.o)
// makes that block start a row of its own, so the jump has a row to go to:
// before, the block joined the jump's trace and encode found no row.
func TestJumpToNext(t *testing.T) {
	p := build(
		jeqi(2, 0, 1), // 0: if r2 == 0 goto 1
		exitImm(2))    // 1
	rom, err := encode(mustSchedule(t, p))
	if err != nil {
		t.Fatal(err)
	}
	c, err := hxdp.New(rom, hxdp.Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(hxdp.Input{Data: make([]byte, hxdp.MinFrame)})
	if err != nil || res.Action != 2 {
		t.Errorf("action %d (%v); want 2", res.Action, err)
	}
}

package hxdp

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/hxdp"
)

// Image is a program compiled for the core: the ROM, the map
// configuration, and what the compiler did.
type Image struct {
	ROM    hxdp.ROM
	Config hxdp.Config
	// EBPF is prog.o's instructions as the kernel counts them; Scheduled
	// the instructions the rows hold (a 64-bit immediate load counts once).
	EBPF, Scheduled int
	Passes          []PassReport
	// rows lists each row's instructions by lane, for the listing.
	rows  [][hxdp.Lanes]*insn
	start map[*block]int
	// places counts the instructions of each P4 place, for a refusal.
	places map[place]int
}

// Rows is the ROM's length.
func (im *Image) Rows() int { return len(im.ROM) }

// IPC is prog.o's eBPF instructions per row: the paper's static IPC.
// Its Table 2 and its "2-3x fewer VLIW instructions than eBPF
// instructions" are one measure (simple_firewall: 72 instructions, IPC
// 2.66, about 27 rows); NIC.md computes the artifact's the same way (68
// instructions in 38 rows, 1.79). What the passes removed counts, so it
// may pass hxdp.Lanes.
func (im *Image) IPC() float64 {
	if len(im.ROM) == 0 {
		return 0
	}
	return float64(im.EBPF) / float64(len(im.ROM))
}

// LanesPerRow is the instructions a row holds, on average: the lanes the
// schedule fills (at most hxdp.Lanes).
func (im *Image) LanesPerRow() float64 {
	if len(im.ROM) == 0 {
		return 0
	}
	return float64(im.Scheduled) / float64(len(im.ROM))
}

// Fits says the ROM fits the core's instruction memory.
func (im *Image) Fits() bool { return len(im.ROM) <= hxdp.MaxRows }

// Options change how Build compiles.
type Options struct {
	// Off names passes not to run ("fold checks", ...), to measure each
	// or find the one at fault.
	Off []string
	// Sequential puts one instruction in each row, in program order: the
	// schedule's baseline, and the model's test without the scheduler.
	Sequential bool
}

// Build compiles prog.o (with its maps.json) for the core: the passes,
// then the schedule, then the ROM. It does not refuse a ROM longer than
// the core's memory (Fits says), so that the model can run any program.
func Build(ctx context.Context, obj []byte, layout kernel.Layout, opts Options) (*Image, error) {
	p, err := load(obj, layout)
	if err != nil {
		return nil, err
	}
	im := &Image{EBPF: p.ebpf, Config: hxdp.Config{Maps: p.maps}}
	off := map[string]bool{}
	for _, name := range opts.Off {
		off[name] = true
	}
	if im.Passes, err = transform(p, off); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := scheduleProgram(p, opts.Sequential)
	if err != nil {
		return nil, err
	}
	markWritten(p, &im.Config)
	im.Config.AssignLines()
	im.rows, im.start = s.rows, s.start
	im.places = map[place]int{}
	for _, b := range p.blocks {
		for _, in := range b.ins {
			im.Scheduled++
			im.places[in.at]++
		}
	}
	if im.ROM, err = encode(s); err != nil {
		return nil, err
	}
	return im, nil
}

// markWritten flags the maps the program stores into.
func markWritten(p *program, cfg *hxdp.Config) {
	f := analyze(p)
	for _, b := range p.blocks {
		for _, in := range b.ins {
			if a, ok := f.mem[in]; ok && isStore(in) && (a.k == kMapVal || a.k == kMapValOrNull) {
				cfg.Maps[a.id].Written = true
			}
			if in.IsCall() && (in.Imm == hxdp.HelperSpinLock || in.Imm == hxdp.HelperSpinUnlock) {
				if s := f.before[in]; s != nil && s.regs[1].k == kMapVal {
					cfg.Maps[s.regs[1].id].Written = true
				}
			}
		}
	}
}

// encode writes the rows as lane words; a jump's offset counts rows.
func encode(s *schedule) (hxdp.ROM, error) {
	rom := make(hxdp.ROM, len(s.rows))
	for r, row := range s.rows {
		for l := 0; l < hxdp.Lanes; l++ {
			in := row[l]
			if in == nil {
				continue
			}
			w := in.Insn
			switch {
			case in.wide():
				hi := hxdp.Insn{}
				switch in.Src {
				case hxdp.PseudoMapFD:
				case hxdp.PseudoMapValue:
					hi.Imm = int32(in.imm64)
				default:
					w.Imm, hi.Imm = int32(uint32(in.imm64)), int32(uint32(in.imm64>>32))
				}
				rom[r][l] = w.Word()
				rom[r][l+1] = hi.Word()
				l++
				continue
			case in.IsJump() && !in.IsExit():
				to, ok := s.start[in.target]
				if !ok || to < 0 {
					return nil, fmt.Errorf("row %d jumps to a block that starts no row", r)
				}
				off := to - (r + 1)
				if off < math.MinInt16 || off > math.MaxInt16 {
					return nil, fmt.Errorf("row %d jumps %d rows, more than a jump's offset holds", r, off)
				}
				w.Off = int16(off)
			}
			rom[r][l] = w.Word()
		}
	}
	return rom, nil
}

// Listing prints the ROM row by row: each lane's word, the instruction,
// where a jump lands, and the P4 line it comes from (with its text when
// source, the main file's text, is that file's).
func (im *Image) Listing(file string, source []byte) []byte {
	lines := strings.Split(string(source), "\n")
	text := func(p place) string {
		if p.line == 0 {
			return "-"
		}
		s := p.String()
		if p.file == file && p.line <= len(lines) {
			s += "  " + strings.TrimSpace(lines[p.line-1])
		}
		return s
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# hXDP ROM: %d eBPF instructions of prog.o, %d after the passes, in %d rows: IPC %.2f (prog.o's instructions per row), %.2f lanes filled per row\n",
		im.EBPF, im.Scheduled, len(im.ROM), im.IPC(), im.LanesPerRow())
	for _, pr := range im.Passes {
		fmt.Fprintf(&b, "# pass %-18s changed %3d, removed %3d, leaving %d\n", pr.Pass, pr.Changed, pr.Removed, pr.Instructions)
	}
	fmt.Fprintf(&b, "#\n# row lane  word              instruction                         P4\n")
	for r, row := range im.rows {
		for l := 0; l < hxdp.Lanes; l++ {
			in := row[l]
			if in == nil {
				continue
			}
			ins := hxdp.Decode(im.ROM[r][l])
			asm := ins.String()
			if in.wide() && in.Src == 0 {
				asm = fmt.Sprintf("r%d = %#x ll", in.Dst, in.imm64) // both lanes' halves
			}
			if in.IsJump() && !in.IsExit() {
				asm += fmt.Sprintf(" <row %d>", r+1+int(ins.Off))
			}
			rowCol := ""
			if l == firstLane(row) {
				rowCol = fmt.Sprint(r)
			}
			fmt.Fprintf(&b, "%5s %4d  %016x  %-35s %s\n", rowCol, l, im.ROM[r][l], asm, text(in.at))
			if in.wide() {
				l++
			}
		}
	}
	return b.Bytes()
}

func firstLane(row [hxdp.Lanes]*insn) int {
	for l, in := range row {
		if in != nil {
			return l
		}
	}
	return 0
}

// busiest is the P4 place with the most instructions, for a refusal.
func (im *Image) busiest() (place, int) {
	var ps []place
	for p := range im.places {
		if p.line > 0 {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if im.places[a] != im.places[b] {
			return im.places[a] > im.places[b]
		}
		if a.file != b.file {
			return a.file < b.file
		}
		return a.line < b.line
	})
	if len(ps) == 0 {
		return place{}, 0
	}
	return ps[0], im.places[ps[0]]
}

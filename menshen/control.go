package menshen

import (
	"fmt"
	"strings"
)

// The control path (FORMAT.md §A.16): control frames travel a chain of
// small state machines, and how a frame lands depends on the frames before
// it. This models the two rules with observable effects on orders a
// generator might emit:
//
//   - Rule 1, residues: a key-extract or mask frame of its exact size
//     leaves a one-beat residue behind, which travels through the CAM,
//     action and indirection modules of its (stage, sub-unit) and, for
//     sub-unit 0, of every later stage. A module holding a residue takes
//     the next control frame that reaches it as the residue's end and
//     forwards it unread; a second residue cancels the first.
//   - Rule 3, late commits: a parser or deparser frame of exactly 8
//     beats is written only when the next control frame reaches the
//     module, which then skips that frame. Parser frames go on down the
//     chain (a parser line's deparser copy follows its parser copy).
//
// Where the format leaves the chain's topology open (the order of the
// sub-units within a stage), frames are taken to pass only the modules of
// earlier stages and their own sub-unit's.

// beats is a frame's number of 32-byte beats.
func beats(f []byte) int { return (len(f) + 31) / 32 }

// control is what the control path holds between frames.
type control struct {
	parserPending, deparserPending *pending
	residue                        [numStages][numSubUnits]bool
}

type pending struct {
	h    Header
	bits string
}

// controlFrame runs one control frame along the chain.
func (m *Model) controlFrame(f []byte) error {
	if len(f) < 64 {
		return fmt.Errorf("a control frame of %d bytes", len(f))
	}
	h := headerOf(uint32(f[46])<<16 | uint32(f[47])<<8 | uint32(f[48]))
	var b strings.Builder
	for _, x := range f[64:] {
		fmt.Fprintf(&b, "%08b", x)
	}
	bits := b.String()
	c := &m.ctl
	// The parser module, first in the chain; every frame goes on.
	if c.parserPending != nil {
		if err := m.Apply(c.parserPending.h, c.parserPending.bits); err != nil {
			return err
		}
		c.parserPending = nil // and this frame is skipped here
	} else if h.Module == 0 {
		if beats(f) == 8 {
			c.parserPending = &pending{h, bits}
		} else if err := m.Apply(h, bits); err != nil {
			return err
		}
	}
	reachesDeparser, err := m.stages(h, f, bits)
	if err != nil || !reachesDeparser {
		return err
	}
	// The deparser module, last.
	if c.deparserPending != nil {
		err := m.Apply(c.deparserPending.h, c.deparserPending.bits)
		c.deparserPending = nil
		return err
	}
	if h.Module == 5 {
		if beats(f) == 8 {
			c.deparserPending = &pending{h, bits}
			return nil
		}
		return m.Apply(h, bits)
	}
	return nil
}

// stages runs a frame through the stages' modules; it reports whether the
// frame (or the residue it leaves) goes on to the deparser.
func (m *Model) stages(h Header, f []byte, bits string) (bool, error) {
	c := &m.ctl
	passes := h.Module == 0 || h.Module == 5 || h.Module == 4 || h.Module == 7 || h.Stage >= numStages || h.Sub >= numSubUnits
	// Modules of earlier stages (of all, for a frame that passes through)
	// see the frame go by.
	last := numStages
	if !passes {
		last = h.Stage
	}
	for s := 0; s < last; s++ {
		for u := range c.residue[s] {
			c.residue[s][u] = false
		}
	}
	if passes {
		return true, nil
	}
	switch h.Module {
	case 1: // key extract or mask: written; leaves a residue at its exact size
		if err := m.Apply(h, bits); err != nil {
			return false, err
		}
		if (h.Resv == 0 && beats(f) == 3) || (h.Resv != 0 && beats(f) == 4) {
			c.residue[h.Stage][h.Sub] = !c.residue[h.Stage][h.Sub]
			if h.Sub == 0 {
				for s := h.Stage + 1; s < numStages; s++ {
					for u := range c.residue[s] {
						c.residue[s][u] = !c.residue[s][u]
					}
				}
			}
		}
		return true, nil
	case 3: // segment: no effect (§A.12); its residue travels later stages
		if beats(f) == 3 {
			for s := h.Stage + 1; s < numStages; s++ {
				for u := range c.residue[s] {
					c.residue[s][u] = !c.residue[s][u]
				}
			}
		}
		return true, nil
	}
	// CAM, action and indirection frames: unread behind a residue.
	if c.residue[h.Stage][h.Sub] {
		c.residue[h.Stage][h.Sub] = false
		return true, nil
	}
	return false, m.Apply(h, bits)
}

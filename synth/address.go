package synth

import (
	"fmt"
	"strings"
)

// A stateful ALU that holds several state variables reads and writes them
// at one address: Tofino's register pair is one register of two words,
// and an atom of Banzai's updates the state at the one index its packet
// carries. State variables that read each other must share an ALU (one
// cannot wait a stage for the other, which waits for it: CaT's strongly
// connected components), so they must share an index too.

// sameAddress reports whether cells are all at one index.
func sameAddress(cells []*Cell) bool {
	for _, c := range cells[1:] {
		if c.Index != cells[0].Index || c.IndexBits != cells[0].IndexBits {
			return false
		}
	}
	return true
}

// oneALU refuses a group of state variables that read each other when
// one ALU cannot hold them: more than it has state variables, or at
// different indexes. It says why they must share an ALU, the ALU's rule
// that they break, and what rewrite would fit.
func (s *synthesizer) oneALU(gr *group) error {
	if len(gr.cells) < 2 {
		return nil
	}
	n := len(s.stateful.States)
	if len(gr.cells) > n {
		return s.unsupported("%s; ALU %s holds %d state variable(s). Break the cycle so that no update reads another's old value "+
			"(then each takes an ALU of its own), or a stateful ALU that holds %d",
			s.cycle(gr), s.stateful.Name, n, len(gr.cells))
	}
	if sameAddress(gr.cells) {
		return nil
	}
	var at []string
	for _, c := range gr.cells {
		at = append(at, fmt.Sprintf("%s at %s", c.Register.Name, indexText(c)))
	}
	first := gr.cells[0]
	return s.unsupported("%s; ALU %s holds its %d state variables at one address (one index for all), and these are at different "+
		"indexes (%s). Index them alike (every one at %s, as %s), or break the cycle so that no update reads another's old value "+
		"(then each takes an ALU of its own)",
		s.cycle(gr), s.stateful.Name, n, strings.Join(at, ", "), indexText(first), first.Register.Name)
}

// cycle says which state variables of a group read each other, and why
// that puts them in one ALU.
func (s *synthesizer) cycle(gr *group) string {
	var reads []string
	for _, c := range gr.cells {
		var others []string
		for _, d := range cellsRead(c.Post) {
			if d != c && gr.owns(d) {
				others = append(others, d.Register.Name)
			}
		}
		if len(others) > 0 {
			reads = append(reads, fmt.Sprintf("the new %s reads the old %s", c.Register.Name, strings.Join(others, " and ")))
		}
	}
	return fmt.Sprintf("%s read each other's old values (%s): neither update can wait a stage for the other, so one stateful ALU must "+
		"update them all in one stage", cellNames(gr.cells), strings.Join(reads, "; "))
}

// indexText prints a cell's index as the address unit computes it.
func indexText(c *Cell) string {
	if c.IndexBits > 0 {
		return fmt.Sprintf("%s & %d", c.Index, 1<<uint(c.IndexBits)-1)
	}
	return c.Index.String()
}

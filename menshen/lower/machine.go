package lower

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
)

// Machine runs a compiled program on the Menshen model, as an
// interp.Target: entries collect until the first packet, which lowers
// the program with them and configures a fresh model through control
// frames, as the board would be configured. Frames go in and out without
// their VLAN tag (Machine adds the tenant's).
type Machine struct {
	in     Input
	model  *menshen.Model
	result *Result
	// Lines is the configuration, once the first packet has come.
	Lines []string
}

// NewMachine returns a machine for a compiled program.
func NewMachine(in Input) *Machine { return &Machine{in: in} }

// AddEntry installs an entry (before the first packet).
func (m *Machine) AddEntry(table string, e interp.Entry) error {
	if m.model != nil {
		return fmt.Errorf("entry for %s after traffic: Menshen is configured before traffic", table)
	}
	m.in.Entries = append(m.in.Entries, interp.TableEntry{Table: table, Entry: e})
	return nil
}

// RegisterWrite accepts only 0: state words start at 0 and no
// configuration entry writes them.
func (m *Machine) RegisterWrite(name string, index uint64, v *big.Int) error {
	if v.Sign() != 0 {
		return fmt.Errorf("register %s: Menshen's state starts at 0 and cannot be configured", name)
	}
	return nil
}

// RegisterRead reads the state word that holds a register.
func (m *Machine) RegisterRead(name string, index uint64) (*big.Int, error) {
	if err := m.configure(); err != nil {
		return nil, err
	}
	c, ok := m.result.Registers[name]
	if !ok {
		return new(big.Int), nil // no ALU updates it: it keeps its initial 0
	}
	v, err := m.model.State(c.Stage, c.Container)
	return big.NewInt(int64(v)), err
}

// Process runs one frame (without a VLAN tag). The port is ignored: the
// pipeline has one input.
func (m *Machine) Process(port uint64, data []byte) (*interp.Output, error) {
	if err := m.configure(); err != nil {
		return nil, err
	}
	if len(data) < tagAt {
		return nil, fmt.Errorf("a %d-byte frame is shorter than its MAC addresses", len(data))
	}
	frame := Tag(data, m.in.Tenant)
	if !Admitted(frame) {
		return nil, fmt.Errorf("the frame is not one Menshen processes (a VLAN-tagged IPv4/UDP frame of 33 to 576 bytes, not to UDP port 0xF1F2)")
	}
	out, err := m.model.Process(frame)
	if err != nil {
		return nil, err
	}
	if out == nil {
		return &interp.Output{Dropped: true}, nil
	}
	untagged := append(append([]byte(nil), out.Frame[:tagAt]...), out.Frame[tagAt+4:]...)
	return &interp.Output{Port: uint64(out.Port ^ portXor), Data: untagged}, nil
}

// configure lowers the program and loads it, once.
func (m *Machine) configure() error {
	if m.model != nil {
		return nil
	}
	res, err := Lower(m.in)
	if err != nil {
		return err
	}
	lines, err := res.Config.Lines()
	if err != nil {
		return err
	}
	frames, err := menshen.LineFrames(lines)
	if err != nil {
		return err
	}
	model := menshen.NewModel()
	for _, f := range frames {
		if out, err := model.Process(f); err != nil || out != nil {
			return fmt.Errorf("control frame: %v %v", out, err)
		}
	}
	m.model, m.result, m.Lines = model, res, lines
	return nil
}

// Tag inserts the VLAN tag of a tenant (VID, PCP 0, DEI 0) after the MAC
// addresses.
func Tag(data []byte, tenant int) []byte {
	var b bytes.Buffer
	b.Write(data[:tagAt])
	b.Write([]byte{0x81, 0x00, byte(tenant >> 8), byte(tenant)})
	b.Write(data[tagAt:])
	return b.Bytes()
}

// Admitted reports whether the pipeline processes a tagged frame as
// data: IPv4/UDP (§A.2), not a control frame, 33 to 576 bytes.
func Admitted(f []byte) bool {
	return len(f) > 41 && len(f) <= 576 && f[16] == 0x08 && f[17] == 0x00 && f[27] == 0x11 && !(f[40] == 0xF1 && f[41] == 0xF2)
}

// Table finds a table of the program by name ("t" or "Control.t"), for
// the packet-test runner.
func (m *Machine) Table(name string) (*ir.Table, error) {
	for _, c := range m.in.Program.Controls {
		if t := c.Table(tableName(c, name)); t != nil {
			return t, nil
		}
	}
	return nil, fmt.Errorf("no table %q", name)
}

// Result is the lowering the machine runs (nil before the first packet).
func (m *Machine) Result() *Result { return m.result }

package kernel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"syscall"

	"github.com/cilium/ebpf"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
)

// ErrPermission is wrapped when the kernel refuses to load or run BPF
// programs for want of privilege (not root, or unprivileged BPF off).
var ErrPermission = errors.New("the kernel refuses BPF to this process (run as root)")

// ErrTooComplex is wrapped when the verifier gives up on a program: it
// follows at most a million instructions over all of its paths.
var ErrTooComplex = errors.New("the kernel's verifier gives up on the program: its paths take more than the million instructions it follows")

// Machine is a loaded prog.o with its maps: the kernel as an
// interp.Target. Its methods may be called from several goroutines at once
// (each is a system call), except that table changes must not race.
type Machine struct {
	prog   *ir.Program
	layout Layout
	coll   *ebpf.Collection
	xdp    *ebpf.Program
	tables map[string]*table
	// values caches the lock groups' values between packets, so reading
	// every cell of a register after a run reads its map once.
	values map[string][]byte
	// valueSetAdds counts the values added to each value_set.
	valueSetAdds map[string]int
}

// Load loads the object through the verifier. prog is the program it was
// compiled from (the tables' names and keys, for packet tests).
func Load(obj []byte, layout Layout, prog *ir.Program) (*Machine, error) {
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(obj))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ObjectFile, err)
	}
	coll, err := ebpf.NewCollectionWithOptions(spec, ebpf.CollectionOptions{})
	if err != nil {
		if errors.Is(err, syscall.EPERM) {
			return nil, fmt.Errorf("%w: %w", ErrPermission, err)
		}
		var ve *ebpf.VerifierError
		if errors.As(err, &ve) {
			if errors.Is(err, syscall.E2BIG) {
				return nil, fmt.Errorf("%w: %v", ErrTooComplex, ve)
			}
			return nil, fmt.Errorf("the verifier rejects %s: %+v", ObjectFile, ve)
		}
		return nil, fmt.Errorf("loading %s: %w", ObjectFile, err)
	}
	m := &Machine{prog: prog, layout: layout, coll: coll, xdp: coll.Programs[layout.Function], tables: map[string]*table{}, valueSetAdds: map[string]int{}}
	if m.xdp == nil {
		coll.Close()
		return nil, fmt.Errorf("%s has no program %s", ObjectFile, layout.Function)
	}
	for i := range layout.Tables {
		lt := &layout.Tables[i]
		t := &table{Table: lt, m: m}
		m.tables[lt.Name] = t
	}
	return m, nil
}

// Close releases the program and its maps.
func (m *Machine) Close() { m.coll.Close() }

// Program is the loaded XDP program (for benchmarks and concurrent runs).
func (m *Machine) Program() *ebpf.Program { return m.xdp }

// Map returns one of the object's maps by name.
func (m *Machine) Map(name string) (*ebpf.Map, error) {
	mp := m.coll.Maps[name]
	if mp == nil {
		return nil, fmt.Errorf("%s has no map %q", ObjectFile, name)
	}
	return mp, nil
}

// xdpMD is struct xdp_md, the context of a test run.
type xdpMD struct {
	Data, DataEnd, DataMeta, IngressIfindex, RxQueueIndex, EgressIfindex uint32
}

// The XDP return codes.
const (
	xdpAborted = iota
	xdpDrop
	xdpPass
	xdpTX
	xdpRedirect
)

// minPacket is the shortest packet a test run takes (an Ethernet header).
const minPacket = 14

// headroom is what the output may grow by (bpf_xdp_adjust_head).
const headroom = 256

// Process runs one packet with BPF_PROG_TEST_RUN. The program reads the
// ingress port from the metadata in front of the packet and writes the
// egress port behind it; XDP_DROP with the drop port there is a drop, any
// other verdict a packet sent (a redirect to a port with no interface
// falls back to XDP_DROP, with the port recorded).
func (m *Machine) Process(port uint64, data []byte) (*interp.Output, error) {
	m.values = nil
	ret, meta, pkt, err := m.Run(port, data)
	if err != nil {
		return nil, err
	}
	out := binary.LittleEndian.Uint32(meta[MetaOutPort:])
	switch {
	case ret == xdpAborted:
		return nil, fmt.Errorf("the program returned XDP_ABORTED")
	case ret == xdpDrop && out == DropPort:
		return &interp.Output{Dropped: true}, nil
	case ret > xdpRedirect:
		return nil, fmt.Errorf("the program returned %d, not an XDP action", ret)
	}
	return &interp.Output{Port: uint64(out), Data: pkt}, nil
}

// Run runs one packet and returns the XDP action, the metadata and the
// packet the program left.
func (m *Machine) Run(port uint64, data []byte) (uint32, []byte, []byte, error) {
	if len(data) < minPacket {
		return 0, nil, nil, fmt.Errorf("a packet of %d bytes: XDP test runs take at least %d", len(data), minPacket)
	}
	in := make([]byte, MetaBytes+len(data))
	binary.LittleEndian.PutUint32(in[MetaInPort:], uint32(port))
	binary.LittleEndian.PutUint32(in[MetaOutPort:], DropPort+1)
	copy(in[MetaBytes:], data)
	out := make([]byte, len(in)+headroom)
	ctxIn := xdpMD{Data: MetaBytes, DataEnd: uint32(len(in))}
	var ctxOut xdpMD
	ret, err := m.xdp.Run(&ebpf.RunOptions{Data: in, DataOut: out, Context: ctxIn, ContextOut: &ctxOut})
	if err != nil {
		if errors.Is(err, syscall.EPERM) {
			return 0, nil, nil, fmt.Errorf("%w: %w", ErrPermission, err)
		}
		return 0, nil, nil, fmt.Errorf("test run: %w", err)
	}
	if ctxOut.Data < MetaBytes || ctxOut.DataEnd > uint32(len(out)) || ctxOut.Data > ctxOut.DataEnd {
		return 0, nil, nil, fmt.Errorf("test run: the output context is out of bounds (%+v)", ctxOut)
	}
	meta := out[ctxOut.Data-MetaBytes : ctxOut.Data]
	return ret, meta, append([]byte(nil), out[ctxOut.Data:ctxOut.DataEnd]...), nil
}

// Table returns the program's table called name ("t" or "Control.t").
func (m *Machine) Table(name string) (*ir.Table, error) {
	for _, c := range m.prog.Controls {
		for _, t := range c.Tables {
			if t.Name == name || c.Name+"."+t.Name == name {
				return t, nil
			}
		}
	}
	return nil, fmt.Errorf("no table %q", name)
}

// table finds a table's layout by name or unique suffix.
func (m *Machine) table(name string) (*table, error) {
	if t, ok := m.tables[name]; ok {
		return t, nil
	}
	var found *table
	for full, t := range m.tables {
		if strings.HasSuffix(full, "."+name) {
			if found != nil {
				return nil, fmt.Errorf("table name %q is ambiguous", name)
			}
			found = t
		}
	}
	if found == nil {
		return nil, fmt.Errorf("no table %q in %s", name, LayoutFile)
	}
	return found, nil
}

// AddEntry installs an entry as a control plane would.
func (m *Machine) AddEntry(name string, e interp.Entry) error {
	t, err := m.table(name)
	if err != nil {
		return err
	}
	return t.add(e)
}

// AddToValueSet adds a value to a parser value_set (STF value_set_add),
// as interp does: at most the set's size.
func (m *Machine) AddToValueSet(name string, v *big.Int) error {
	for _, vs := range m.layout.ValueSets {
		if vs.Name != name {
			continue
		}
		if v.Sign() < 0 || v.BitLen() > vs.WidthBits {
			return fmt.Errorf("value_set %s: %s is not a %d-bit value", name, v, vs.WidthBits)
		}
		mp, err := m.Map(vs.Map)
		if err != nil {
			return err
		}
		// Counted as interp counts them, a value added twice twice.
		if m.valueSetAdds[name] >= vs.Size {
			return fmt.Errorf("value_set %s holds at most %d values", name, vs.Size)
		}
		if err := mp.Put(v.FillBytes(make([]byte, vs.Bytes)), uint32(1)); err != nil {
			return err
		}
		m.valueSetAdds[name]++
		return nil
	}
	return fmt.Errorf("no value_set called %q", name)
}

// SetDefault changes a table's default action.
func (m *Machine) SetDefault(name, action string, data []*big.Int) error {
	t, err := m.table(name)
	if err != nil {
		return err
	}
	if it, err := m.Table(name); err == nil && it.DefaultConst {
		return fmt.Errorf("table %s: the default action is const", name)
	}
	if t.Default == "" {
		return fmt.Errorf("table %s has const entries: its default action is in the code", name)
	}
	v, err := t.value(action, data, 0)
	if err != nil {
		return err
	}
	mp, err := m.Map(t.Default)
	if err != nil {
		return err
	}
	return mp.Put(uint32(0), v)
}

func (m *Machine) register(name string) (*Register, error) {
	for i := range m.layout.Registers {
		if r := &m.layout.Registers[i]; r.Name == name {
			return r, nil
		}
	}
	return nil, fmt.Errorf("no register %q", name)
}

// cell returns the map and key of a register, and where the cell is in the
// value.
func (m *Machine) cell(name string, index uint64) (*Register, *ebpf.Map, uint32, int, error) {
	r, err := m.register(name)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	if index >= uint64(r.Size) {
		return nil, nil, 0, 0, fmt.Errorf("register %s has %d cells; index %d is out of range", name, r.Size, index)
	}
	mp, err := m.Map(r.Map)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	if r.Locked {
		return r, mp, 0, r.Offset + int(index)*r.CellBytes, nil
	}
	return r, mp, uint32(index), 0, nil
}

// RegisterRead reads a register cell (a locked one under its lock).
func (m *Machine) RegisterRead(name string, index uint64) (*big.Int, error) {
	r, mp, key, off, err := m.cell(name, index)
	if err != nil {
		return nil, err
	}
	buf := m.values[r.Map]
	if buf == nil {
		buf = make([]byte, mp.ValueSize())
		flags := ebpf.MapLookupFlags(0)
		if r.Locked {
			flags = ebpf.LookupLock
		}
		if err := mp.LookupWithFlags(key, &buf, flags); err != nil {
			return nil, fmt.Errorf("reading register %s: %w", name, err)
		}
		if r.Locked {
			if m.values == nil {
				m.values = map[string][]byte{}
			}
			m.values[r.Map] = buf
		}
	}
	return new(big.Int).SetUint64(getHost(buf[off:], r.CellBytes)), nil
}

// RegisterWrite writes a register cell (a locked one under its lock).
func (m *Machine) RegisterWrite(name string, index uint64, v *big.Int) error {
	r, mp, key, off, err := m.cell(name, index)
	if err != nil {
		return err
	}
	m.values = nil
	buf := make([]byte, mp.ValueSize())
	if r.Locked {
		if err := mp.LookupWithFlags(key, &buf, ebpf.LookupLock); err != nil {
			return fmt.Errorf("reading register %s: %w", name, err)
		}
	}
	putHost(buf[off:], r.CellBytes, truncate(v, r.WidthBits))
	flags := ebpf.UpdateAny
	if r.Locked {
		flags |= ebpf.UpdateLock
	}
	if err := mp.Update(key, buf, flags); err != nil {
		return fmt.Errorf("writing register %s: %w", name, err)
	}
	return nil
}

// Counter reads a counter cell.
func (m *Machine) Counter(name string, index uint64) (interp.Counter, error) {
	for _, c := range m.layout.Counters {
		if c.Name != name {
			continue
		}
		mp, err := m.Map(c.Map)
		if err != nil {
			return interp.Counter{}, err
		}
		var v [2]uint64
		if err := mp.Lookup(uint32(index), &v); err != nil {
			return interp.Counter{}, err
		}
		return interp.Counter{Packets: v[0], Bytes: v[1]}, nil
	}
	return interp.Counter{}, fmt.Errorf("no counter %q", name)
}

func truncate(v *big.Int, w int) uint64 {
	u := new(big.Int).And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1)))
	return u.Uint64()
}

func putHost(b []byte, n int, v uint64) {
	switch n {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

func getHost(b []byte, n int) uint64 {
	switch n {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

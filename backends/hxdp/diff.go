package hxdp

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cilium/ebpf"

	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/hxdp"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
)

// Divergence is where the model and the kernel first disagree.
type Divergence struct {
	// Packet is the packet's index in the case (-1: after the last).
	Packet int
	Port   uint64
	Data   []byte
	What   string
}

func (d *Divergence) Error() string {
	if d.Packet < 0 {
		return d.What
	}
	return fmt.Sprintf("packet %d (port %d, %x): %s", d.Packet, d.Port, d.Data, d.What)
}

// Pair is a program loaded twice: into the kernel (through the verifier,
// its maps filled by a control plane) and into the model, whose map
// memory starts as a copy of the kernel's maps.
type Pair struct {
	Kernel *kernel.Machine
	Core   *hxdp.Core
	image  *Image
}

// Close releases the kernel's program and maps.
func (p *Pair) Close() { p.Kernel.Close() }

// NewPair loads obj into the kernel, fills its tables and registers with
// the case's entries and register contents (the xdp target's control
// plane), and copies every map into a new model of the core running the
// image.
func NewPair(prog *ir.Program, obj []byte, layout kernel.Layout, im *Image, c *interp.Case) (*Pair, error) {
	m, err := kernel.Load(obj, layout, prog)
	if err != nil {
		return nil, err
	}
	p := &Pair{Kernel: m, image: im}
	if err := p.setUp(c); err != nil {
		m.Close()
		return nil, err
	}
	return p, nil
}

func (p *Pair) setUp(c *interp.Case) error {
	for _, e := range c.Entries {
		if err := p.Kernel.AddEntry(e.Table, e.Entry); err != nil {
			return fmt.Errorf("table %s: %w", e.Table, err)
		}
	}
	for _, r := range c.Registers {
		if err := p.Kernel.RegisterWrite(r.Register, r.Index, r.Value); err != nil {
			return err
		}
	}
	core, err := hxdp.New(p.image.ROM, p.image.Config)
	if err != nil {
		return err
	}
	p.Core = core
	for _, mp := range p.image.Config.Maps {
		if mp.Data != nil || mp.Type == "xskmap" {
			// A data section: the configuration holds it. An XSKMAP holds
			// sockets, which a test run has none of (and the kernel does
			// not show to user space).
			continue
		}
		es, err := p.kernelEntries(mp)
		if err != nil {
			return err
		}
		for _, e := range es {
			if err := core.Put(mp.ID, e.Key, e.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// kernelEntries reads a map's contents from the kernel: every index of an
// array, the entries of the others.
func (p *Pair) kernelEntries(mp hxdp.Map) ([]hxdp.Entry, error) {
	km, err := p.Kernel.Map(mp.Name)
	if err != nil {
		return nil, err
	}
	var out []hxdp.Entry
	if mp.Type == "array" || mp.Type == "devmap" {
		for i := 0; i < mp.MaxEntries; i++ {
			key := binary.LittleEndian.AppendUint32(nil, uint32(i))
			v := make([]byte, mp.ValueBytes)
			if err := km.Lookup(key, &v); err != nil {
				if errors.Is(err, ebpf.ErrKeyNotExist) {
					continue
				}
				return nil, fmt.Errorf("map %s[%d]: %w", mp.Name, i, err)
			}
			out = append(out, hxdp.Entry{Key: key, Value: v})
		}
		return out, nil
	}
	it := km.Iterate()
	k, v := make([]byte, mp.KeyBytes), make([]byte, mp.ValueBytes)
	for it.Next(&k, &v) {
		out = append(out, hxdp.Entry{Key: bytes.Clone(k), Value: bytes.Clone(v)})
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("map %s: %w", mp.Name, err)
	}
	return out, nil
}

// Run runs one packet on both and says how they differ ("" when they do
// not): the XDP action, the metadata, the packet's bytes, and every map
// entry the model's run wrote.
func (p *Pair) Run(port uint64, data []byte) (*hxdp.Result, string, error) {
	ret, meta, pkt, err := p.Kernel.Run(port, data)
	if err != nil {
		return nil, "", fmt.Errorf("the kernel: %w", err)
	}
	in := hxdp.Input{Data: data, Ifindex: 1}
	binary.LittleEndian.PutUint32(in.Meta[kernel.MetaInPort:], uint32(port))
	binary.LittleEndian.PutUint32(in.Meta[kernel.MetaOutPort:], kernel.DropPort+1)
	res, err := p.Core.Run(in)
	if err != nil {
		return nil, fmt.Sprintf("the model fails: %v (the kernel: action %d, %x)", err, ret, pkt), nil
	}
	switch {
	case res.Action != ret:
		return res, fmt.Sprintf("action: the kernel %d, the model %d", ret, res.Action), nil
	case !bytes.Equal(meta, res.Meta[:]):
		return res, fmt.Sprintf("metadata: the kernel %x, the model %x", meta, res.Meta), nil
	case !bytes.Equal(pkt, res.Data):
		return res, fmt.Sprintf("packet: the kernel %x, the model %x", pkt, res.Data), nil
	}
	for _, c := range res.Written {
		if what, err := p.compareEntry(c); err != nil || what != "" {
			return res, what, err
		}
	}
	return res, "", nil
}

// compareEntry compares one map entry.
func (p *Pair) compareEntry(c hxdp.Cell) (string, error) {
	mp := p.image.Config.Maps[c.Map]
	km, err := p.Kernel.Map(mp.Name)
	if err != nil {
		return "", err
	}
	kv := make([]byte, mp.ValueBytes)
	if err := km.Lookup(c.Key, &kv); err != nil {
		return "", fmt.Errorf("map %s[%x]: %w", mp.Name, c.Key, err)
	}
	mv, err := p.Core.Lookup(c.Map, c.Key)
	if err != nil {
		return "", err
	}
	if !bytes.Equal(kv, mv) {
		return fmt.Sprintf("map %s[%x]: the kernel %x, the model %x", mp.Name, c.Key, kv, mv), nil
	}
	return "", nil
}

// CompareMaps compares every map the model holds with the kernel's.
func (p *Pair) CompareMaps() (string, error) {
	for _, mp := range p.image.Config.Maps {
		if mp.Data != nil || mp.Type == "xskmap" {
			continue
		}
		ke, err := p.kernelEntries(mp)
		if err != nil {
			return "", err
		}
		me, err := p.Core.Entries(mp.ID)
		if err != nil {
			return "", err
		}
		if mp.Type != "array" {
			sortEntries(ke)
		}
		if len(ke) != len(me) {
			return fmt.Sprintf("map %s: the kernel holds %d entries, the model %d", mp.Name, len(ke), len(me)), nil
		}
		for i := range ke {
			if !bytes.Equal(ke[i].Key, me[i].Key) || !bytes.Equal(ke[i].Value, me[i].Value) {
				return fmt.Sprintf("map %s: the kernel has %x: %x, the model %x: %x", mp.Name, ke[i].Key, ke[i].Value, me[i].Key, me[i].Value), nil
			}
		}
	}
	return "", nil
}

func sortEntries(es []hxdp.Entry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && bytes.Compare(es[j].Key, es[j-1].Key) < 0; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// Case is a random case as the core takes it: kernel.Case's, each packet
// padded to hxdp.MinFrame bytes (the MAC passes no shorter frame).
func Case(prog *ir.Program, layout kernel.Layout, seed int64, packets int) *interp.Case {
	c := kernel.Case(prog, layout, seed, packets, 4, 4)
	for i, p := range c.Packets {
		for len(p.Data) < hxdp.MinFrame {
			p.Data = append(p.Data, byte(len(p.Data)*29+i))
		}
		c.Packets[i] = p
	}
	return c
}

// Stats is what a differential run measured on the model.
type Stats struct {
	Packets int
	// Cycles and Instructions are totals over the packets.
	Cycles, Instructions int
}

// CyclesPerPacket is the mean rows per packet.
func (s Stats) CyclesPerPacket() float64 {
	if s.Packets == 0 {
		return 0
	}
	return float64(s.Cycles) / float64(s.Packets)
}

// Diff runs a random case of packets packets on the kernel and on the
// model and returns the first divergence (nil when they agree on every
// packet and, at the end, on every map), with the model's counts.
func Diff(ctx context.Context, prog *ir.Program, obj []byte, layout kernel.Layout, im *Image, seed int64, packets int) (*Divergence, Stats, error) {
	c := Case(prog, layout, seed, packets)
	p, err := NewPair(prog, obj, layout, im, c)
	if err != nil {
		return nil, Stats{}, err
	}
	defer p.Close()
	var st Stats
	for i, pk := range c.Packets {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, st, err
			}
		}
		res, what, err := p.Run(pk.Port, pk.Data)
		if err != nil {
			return nil, st, fmt.Errorf("packet %d: %w", i, err)
		}
		if what != "" {
			return &Divergence{Packet: i, Port: pk.Port, Data: pk.Data, What: what}, st, nil
		}
		st.Packets++
		st.Cycles += res.Cycles
		st.Instructions += res.Instructions
	}
	what, err := p.CompareMaps()
	if err != nil || what == "" {
		return nil, st, err
	}
	return &Divergence{Packet: -1, What: what}, st, nil
}

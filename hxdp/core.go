package hxdp

import (
	"bytes"
	"errors"
	"fmt"
)

// The packet the core runs on, as the APS (the active packet selector)
// hands it over: a frame buffer with XDP's headroom, MetaBytes of
// metadata just before the packet, the packet, and room behind it.
const (
	// Headroom is the frame buffer's room in front of the metadata, as
	// XDP gives it (XDP_PACKET_HEADROOM), so bpf_xdp_adjust_head grows a
	// packet on the core as in the kernel.
	Headroom = 256
	// frameHead is what bpf_xdp_adjust_head may not move into: the
	// kernel's struct xdp_frame at the buffer's start.
	frameHead = 40
	// MetaBytes is the metadata the APS puts before every packet: the
	// ingress port (u32, bytes 0-3) and the egress port the program
	// chooses (u32, bytes 4-7), as the xdp target reads and writes them.
	MetaBytes = 8
	// MinFrame is the shortest packet the core is given: Ethernet's
	// minimum frame of 64 bytes less its 4-byte FCS. The MAC drops
	// shorter frames (runts) before they reach the core, so the compiler
	// may drop a bounds check that only a shorter packet fails.
	MinFrame = 60
	// MaxFrame bounds the packet (a jumbo frame).
	MaxFrame = 9018
	// tailroom is room behind the packet, which no helper the core has
	// uses, so that an access just past the end is reported as such.
	tailroom = 64
)

// xdp_md fields (the context in r1).
const (
	ctxData     = 0
	ctxDataEnd  = 4
	ctxDataMeta = 8
	ctxIfindex  = 12
	ctxRxQueue  = 16
	ctxBytes    = 24
)

// The XDP actions.
const (
	XDPAborted  = 0
	XDPDrop     = 1
	XDPPass     = 2
	XDPTX       = 3
	XDPRedirect = 4
)

// maxRowsPerPacket stops a program that does not end.
const maxRowsPerPacket = 1 << 20

// Input is a packet as the core receives it.
type Input struct {
	// Meta is the metadata in front of the packet (MetaBytes).
	Meta [MetaBytes]byte
	Data []byte
	// Ifindex and Queue are the xdp_md's ingress_ifindex and
	// rx_queue_index.
	Ifindex, Queue uint32
}

// Cell is a map entry a packet wrote: the map's id and the entry's key.
type Cell struct {
	Map int
	Key []byte
}

// Result is what the core did with a packet.
type Result struct {
	// Action is the XDP action the program exited with.
	Action uint32
	// Meta and Data are the metadata and the packet as the program left
	// them.
	Meta [MetaBytes]byte
	Data []byte
	// Cycles is the rows the core executed (one per cycle, the exit's row
	// included: the exit is recognized at fetch).
	Cycles int
	// Instructions is the instructions those rows held (empty lanes and
	// the second lane of a 64-bit immediate are not counted).
	Instructions int
	// Redirect is the map and key of a bpf_redirect_map that found an
	// entry (when Action is XDPRedirect).
	Redirect *Cell
	// Written lists the map entries the packet stored into, each once, in
	// the order first written.
	Written []Cell
}

// Core is the model: the ROM and the map memory. Maps keep their contents
// from packet to packet; registers, stack and packet are per packet. A
// Core runs one packet at a time.
type Core struct {
	rom  ROM
	maps []*table
	rng  uint32 // bpf_get_prandom_u32's state, carried from packet to packet
}

// New loads a ROM and a map configuration.
func New(rom ROM, cfg Config) (*Core, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(rom) == 0 {
		return nil, errors.New("the ROM is empty")
	}
	c := &Core{rom: rom, rng: 0x2545f491}
	for _, m := range cfg.Maps {
		t, err := newTable(m)
		if err != nil {
			return nil, err
		}
		c.maps = append(c.maps, t)
	}
	return c, nil
}

// Put writes a map entry, as the control plane does over the map bus.
func (c *Core) Put(id int, key, value []byte) error {
	t, err := c.table(id)
	if err != nil {
		return err
	}
	return t.put(key, value)
}

// Entries lists a map's contents: every index of an array; the keys in
// use of other maps, sorted.
func (c *Core) Entries(id int) ([]Entry, error) {
	t, err := c.table(id)
	if err != nil {
		return nil, err
	}
	return t.entries(), nil
}

// Lookup returns a map entry's value (nil when there is none).
func (c *Core) Lookup(id int, key []byte) ([]byte, error) {
	t, err := c.table(id)
	if err != nil {
		return nil, err
	}
	s := t.slot(key)
	if s < 0 {
		return nil, nil
	}
	return bytes.Clone(t.values[s*t.ValueBytes : (s+1)*t.ValueBytes]), nil
}

func (c *Core) table(id int) (*table, error) {
	if id < 0 || id >= len(c.maps) {
		return nil, fmt.Errorf("no map %d (the configuration has %d)", id, len(c.maps))
	}
	return c.maps[id], nil
}

// Run runs the ROM on one packet.
func (c *Core) Run(in Input) (*Result, error) {
	if len(in.Data) < MinFrame || len(in.Data) > MaxFrame {
		return nil, fmt.Errorf("a packet of %d bytes: the core takes %d to %d", len(in.Data), MinFrame, MaxFrame)
	}
	m := newMachine(c, in)
	if err := m.run(); err != nil {
		return nil, err
	}
	res := &Result{Action: m.action, Cycles: m.cycles, Instructions: m.insns, Redirect: m.redirect, Written: m.written}
	copy(res.Meta[:], m.frame[m.data-MetaBytes:m.data])
	res.Data = bytes.Clone(m.frame[m.data:m.end])
	return res, nil
}

package hxdp

import "fmt"

// The helper functions the core's helper module implements, by eBPF
// helper id.
const (
	HelperMapLookup  = 1
	HelperRandom     = 7
	HelperAdjustHead = 44
	HelperRedirect   = 51
	HelperSpinLock   = 93
	HelperSpinUnlock = 94
)

// Helpers is the set of helper ids the core implements.
var Helpers = map[int32]string{
	HelperMapLookup:  "bpf_map_lookup_elem",
	HelperRandom:     "bpf_get_prandom_u32",
	HelperAdjustHead: "bpf_xdp_adjust_head",
	HelperRedirect:   "bpf_redirect_map",
	HelperSpinLock:   "bpf_spin_lock",
	HelperSpinUnlock: "bpf_spin_unlock",
}

// The kernel's error numbers the helpers return.
const errInval = 22

// call runs a helper: arguments in r1 to r5, the result in r0; r1 to r5
// are scratched (set to zero).
func (m *machine) call(in Insn) error {
	r := &m.regs
	var ret uint64
	var err error
	switch in.Imm {
	case HelperMapLookup:
		ret, err = m.mapLookup(r[1], r[2])
	case HelperRandom:
		ret = m.c.random()
	case HelperAdjustHead:
		ret = m.adjustHead(int32(r[2]))
	case HelperRedirect:
		ret, err = m.redirectMap(r[1], uint32(r[2]), r[3])
	case HelperSpinLock, HelperSpinUnlock:
		// One packet at a time on one core: nothing contends for a lock.
		if region(r[1]) != regionMapVal {
			err = fmt.Errorf("%s on %#x, which is no map value", Helpers[in.Imm], r[1])
		}
	default:
		return fmt.Errorf("helper %d is not one the core has", in.Imm)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", Helpers[in.Imm], err)
	}
	r[0] = ret
	for i := 1; i <= 5; i++ {
		r[i] = 0
	}
	return nil
}

func (m *machine) mapOf(handle uint64) (*table, error) {
	if region(handle) != regionMapFD || handle&mapOffsetMask != 0 {
		return nil, fmt.Errorf("%#x is no map", handle)
	}
	return m.c.table(int(handle >> mapIDShift & 0xff))
}

func (m *machine) mapLookup(handle, keyAddr uint64) (uint64, error) {
	t, err := m.mapOf(handle)
	if err != nil {
		return 0, err
	}
	key, _, _, err := m.bytesAt(keyAddr, t.KeyBytes)
	if err != nil {
		return 0, fmt.Errorf("reading the key: %w", err)
	}
	s := t.lookup(key)
	if s < 0 {
		return 0, nil
	}
	return mapValueAddr(t.ID, s*t.ValueBytes), nil
}

// adjustHead moves the packet's head by delta bytes as the kernel does:
// not into the frame's head or past 14 bytes (an Ethernet header) before
// its end, the metadata moving with it.
func (m *machine) adjustHead(delta int32) uint64 {
	data := m.data + int(delta)
	if data < frameHead+MetaBytes || data > m.end-14 {
		neg := -int64(errInval)
		return uint64(neg)
	}
	copy(m.frame[data-MetaBytes:data], append([]byte(nil), m.frame[m.data-MetaBytes:m.data]...))
	m.data = data
	return 0
}

// redirectMap is bpf_redirect_map: XDP_REDIRECT when the map has the key,
// else the action in the flags' low two bits.
func (m *machine) redirectMap(handle uint64, key uint32, flags uint64) (uint64, error) {
	t, err := m.mapOf(handle)
	if err != nil {
		return 0, err
	}
	if t.Type != "devmap" && t.Type != "xskmap" {
		return 0, fmt.Errorf("map %s is a %s, not a devmap or xskmap", t.Name, t.Type)
	}
	const actionMask, allowed = 3, 3 | 8 | 16 // BPF_F_BROADCAST, BPF_F_EXCLUDE_INGRESS
	if flags&^allowed != 0 {
		return XDPAborted, nil
	}
	k := []byte{byte(key), byte(key >> 8), byte(key >> 16), byte(key >> 24)}
	if t.slot(k) < 0 {
		return flags & actionMask, nil
	}
	m.redirect = &Cell{Map: t.ID, Key: k}
	return XDPRedirect, nil
}

// random is the core's pseudo-random number generator (xorshift32): its
// own sequence, which no other machine draws, so a differential run
// cannot compare a program that reads it.
func (c *Core) random() uint64 {
	x := c.rng
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	c.rng = x
	return uint64(x)
}

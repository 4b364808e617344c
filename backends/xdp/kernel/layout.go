// Package kernel runs what the xdp backend writes on the Linux kernel: it
// loads OUT/prog.o through the verifier (github.com/cilium/ebpf), fills
// its maps as OUT/maps.json describes them (the control plane), and runs
// packets with BPF_PROG_TEST_RUN. A Machine is an interp.Target, so the
// differential tests and `p4hls sim --target xdp` drive it exactly as they
// drive the interpreter.
//
// It also holds the schema of maps.json (Layout): the backend writes it,
// this package reads it, and other loaders may too.
package kernel

// The files the xdp backend writes.
const (
	ObjectFile = "prog.o"    // the ELF object: section "xdp", BTF-described maps
	LayoutFile = "maps.json" // Layout, as JSON
	SourceFile = "prog.c"    // the generated C clang compiled, for people to read
)

// PlaceMarker starts the comment that ends a line of prog.c written for a
// P4 construct: "// @ FILE:LINE", the construct's file and line. clang's
// line information names each instruction's C line, so a reader of
// prog.o finds the P4 line of an instruction (the hxdp target's listing).
const PlaceMarker = "// @ "

// The program's ELF section and function.
const (
	Section  = "xdp"
	Function = "p4hls_xdp"
)

// XDP metadata the program reads and writes when the packet carries at
// least MetaBytes of it (a test run or an earlier program in a chain puts
// it there): the P4 ingress port in, the P4 egress port out.
const (
	MetaBytes      = 8
	MetaInPort     = 0 // byte offset of the ingress port (u32, host order)
	MetaOutPort    = 4 // byte offset of the egress port the program chose
	DropPort       = 511
	DefaultCPUPort = 510
)

// Layout is maps.json: every map of prog.o, what it holds and how its keys
// and values are laid out, and where the program came from.
type Layout struct {
	// Source is the P4 file compiled, with the preprocessor options and the
	// SHA-256 of its text, so a runner can load the same program.
	Source      string            `json:"source"`
	SHA256      string            `json:"sha256"`
	IncludeDirs []string          `json:"include_dirs,omitempty"`
	Defines     map[string]string `json:"defines,omitempty"`
	// Section and Function name the program in prog.o.
	Section  string `json:"section"`
	Function string `json:"function"`
	// CPUPort is the P4 port whose packets go to an AF_XDP socket (Ports.XSK).
	CPUPort int `json:"cpu_port"`
	// Maps lists every map of prog.o.
	Maps      []Map      `json:"maps"`
	Ports     Ports      `json:"ports"`
	Tables    []Table    `json:"tables"`
	Registers []Register `json:"registers"`
	Counters  []Counter  `json:"counters"`
	ValueSets []ValueSet `json:"value_sets"`
}

// Map is one BPF map of the object.
type Map struct {
	Name       string `json:"name"`
	Type       string `json:"type"` // hash, lpm_trie, array, devmap, xskmap
	KeyBytes   int    `json:"key_bytes"`
	ValueBytes int    `json:"value_bytes"`
	MaxEntries int    `json:"max_entries"`
	// Holds says what the map is: "table T", "table T default action",
	// "table T masks", "register R", "counter C", "ports".
	Holds string `json:"holds"`
}

// Ports names the maps that tie P4 ports to the machine.
type Ports struct {
	// In maps an interface's ifindex (u32) to its P4 ingress port (u32).
	In string `json:"in"`
	// Out is a DEVMAP from P4 egress port to interface (XDP_REDIRECT).
	Out string `json:"out"`
	// XSK is an XSKMAP from receive queue to AF_XDP socket: packets sent to
	// the CPU port go to the socket of the queue they arrived on.
	XSK string `json:"xsk"`
}

// The kinds of table encodings.
const (
	TableExact   = "exact"   // a HASH map from the packed key
	TableLPM     = "lpm"     // an LPM_TRIE: exact keys then the lpm key
	TableTernary = "ternary" // tuple-space search: see Table.Masks
	TableKeyless = "keyless" // only a default action
	TableConst   = "const"   // const entries compiled into the code
)

// Table is a P4 table and its maps.
type Table struct {
	// Name is the control-plane name, Control.table.
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Map holds the entries (exact, lpm, ternary); Default the default
	// action (an ARRAY of one value; action 0 there means the action the
	// program declares as default); Masks, for ternary tables, the masks in
	// use (an ARRAY of MaxMasks values, the first unused one all zero and
	// marked 0 in its first 4 bytes).
	Map      string `json:"map"`
	Default  string `json:"default"`
	Masks    string `json:"masks"`
	MaxMasks int    `json:"max_masks"`
	Size     int    `json:"size"`
	// Keys are the keys in the table's order; KeyBytes the packed key's
	// size (for lpm the 4-byte prefix length comes first, for ternary the
	// 4-byte mask index).
	Keys     []Key `json:"keys"`
	KeyBytes int   `json:"key_bytes"`
	// Actions are the actions an entry may name; ValueBytes the value's
	// size: action id (u32), rank (u32, ternary tables: the smaller wins),
	// then the action data.
	Actions    []Action `json:"actions"`
	ValueBytes int      `json:"value_bytes"`
}

// Key is one key of a table: big-endian in Bytes bytes at Offset of the
// packed key (an lpm key left-aligned).
type Key struct {
	Name      string `json:"name"`
	Match     string `json:"match"`
	WidthBits int    `json:"width_bits"`
	Offset    int    `json:"offset"`
	Bytes     int    `json:"bytes"`
}

// Action is an action of a table: its id in entry values and its data.
type Action struct {
	Name string  `json:"name"`
	ID   int     `json:"id"`
	Data []Param `json:"data"`
}

// Param is one action-data parameter: host byte order, Bytes bytes at
// Offset of the entry value.
type Param struct {
	Name      string `json:"name"`
	WidthBits int    `json:"width_bits"`
	Offset    int    `json:"offset"`
	Bytes     int    `json:"bytes"`
}

// Register is a P4 register. An unlocked one is an ARRAY map from index to
// a value holding the cell (host order, CellBytes). A locked one (read and
// written in an @atomic block) lives in an ARRAY map of one value: a
// bpf_spin_lock at offset 0, then every locked register of its group, each
// Size cells of CellBytes at Offset.
type Register struct {
	Name      string `json:"name"`
	Map       string `json:"map"`
	WidthBits int    `json:"width_bits"`
	Size      int    `json:"size"`
	CellBytes int    `json:"cell_bytes"`
	Locked    bool   `json:"locked"`
	Offset    int    `json:"offset"`
}

// Counter is a P4 counter: an ARRAY map from index to {packets, bytes}
// (two u64, host order).
type Counter struct {
	Name string `json:"name"`
	Map  string `json:"map"`
	Size int    `json:"size"`
}

// ValueSet is a parser value_set: a HASH map whose keys are the set's
// values, big-endian in Bytes bytes (the value a u32 1). A select case of
// the set matches a value the map holds.
type ValueSet struct {
	Name      string `json:"name"`
	Map       string `json:"map"`
	WidthBits int    `json:"width_bits"`
	Bytes     int    `json:"bytes"`
	Size      int    `json:"size"`
}

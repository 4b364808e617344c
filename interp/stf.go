package interp

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// STF is p4hls's packet-test format, in the style of p4c's STF: one command
// per line, # starts a comment.
//
//	add TABLE [PRIORITY] KEY:VALUE... ACTION(PARAM:VALUE, ...)
//	setdefault TABLE ACTION(PARAM:VALUE, ...)
//	register_write REGISTER INDEX VALUE
//	meter_color METER INDEX COLOR        (0 green, 1 yellow, 2 red)
//	value_set_add VALUE_SET VALUE
//	packet PORT HEX...
//	expect PORT [HEX...[$]]              (* is a don't-care nibble)
//	expect drop
//	expect_register REGISTER INDEX VALUE
//	wait                                 (p4c's; it does nothing here)
//	mc_mgrp_create GROUP                 (simple_switch's multicast groups:
//	mc_node_create RID PORT...            a node's handle is its place among
//	mc_node_associate GROUP HANDLE        the nodes created, from 0)
//	mirroring_add SESSION PORT           (simple_switch's clone sessions)
//
// A KEY is the key's control-plane name (hdr.ipv4.dstAddr) or a unique
// suffix of it (dstAddr). A VALUE is decimal, 0x hex, 0b binary, a dotted
// IPv4 address or a colon-separated MAC address; a key's VALUE may also be
// VALUE&&&MASK (ternary), VALUE/LENGTH (lpm), LOW..HIGH (range) or *
// (anything).
//
// Expectations work as p4c's do: each port has a queue of them, and the
// packets that come out of a port meet its queue in order, whether the
// expect line comes before or after the packet line. An expectation
// checks the first bytes of its packet, all of them when it ends in $,
// none when it has no bytes. A packet that comes out where no expectation
// awaits it, and an expectation no packet meets, are mismatches. expect
// drop checks that the packet line before it came out nowhere.

// STFCommand is one parsed line.
type STFCommand struct {
	Line int
	Kind string // add, setdefault, register_write, meter_color, value_set_add, packet, expect, expect_register, wait, mc_*
	// add, setdefault: the table and the entry.
	Table string
	Entry Entry
	// register_write, expect_register, meter_color, value_set_add.
	Name  string
	Index uint64
	Value *big.Int
	// mc_node_create: the node's ports (its replication id is Index);
	// mc_mgrp_create and mc_node_associate: the group is Index, the
	// node's handle Value; mirroring_add: the session is Index, its port
	// Port.
	Ports []uint64
	// packet, expect.
	Port uint64
	Data []byte
	Care []byte // per nibble of Data: 1 when it is checked
	// Whole (expect): the packet must end where Data does ($).
	Whole bool
	Drop  bool
}

// STFError is a malformed line of a test file.
type STFError struct {
	File string
	Line int
	Msg  string
}

func (e *STFError) Error() string { return fmt.Sprintf("%s:%d: error: %s", e.File, e.Line, e.Msg) }

// ParseSTF parses a test file. Table and key names are checked when the
// test runs, against the program.
func ParseSTF(file string, src string) ([]STFCommand, error) {
	r := NewSTFReader(file, strings.NewReader(src))
	var cmds []STFCommand
	for {
		c, err := r.Next()
		if err == io.EOF {
			return cmds, nil
		}
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, c)
	}
}

// maxSTFLine bounds a line of a test file (a packet of 64 KiB in hex is
// 128 KiB); a longer line is an error, not a buffer that grows without
// end.
const maxSTFLine = 1 << 20

// STFReader reads a test file a command at a time, so a test of any
// number of packets runs in bounded memory.
type STFReader struct {
	file string
	sc   *bufio.Scanner
	line int
}

// NewSTFReader reads file's commands from r.
func NewSTFReader(file string, r io.Reader) *STFReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxSTFLine)
	return &STFReader{file: file, sc: sc}
}

// Next returns the next command, or io.EOF after the last.
func (r *STFReader) Next() (STFCommand, error) {
	for r.sc.Scan() {
		r.line++
		line := r.sc.Text()
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		cmd, err := parseCommand(fields, strings.TrimSpace(line))
		if err != nil {
			return cmd, &STFError{File: r.file, Line: r.line, Msg: err.Error()}
		}
		cmd.Line = r.line
		return cmd, nil
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a line longer than %d bytes", maxSTFLine)
		}
		return STFCommand{}, &STFError{File: r.file, Line: r.line + 1, Msg: err.Error()}
	}
	return STFCommand{}, io.EOF
}

func parseCommand(f []string, line string) (STFCommand, error) {
	cmd := STFCommand{Kind: f[0]}
	need := func(n int, usage string) error {
		if len(f) < n {
			return fmt.Errorf("%s needs %s", f[0], usage)
		}
		return nil
	}
	var err error
	switch f[0] {
	case "add":
		if err := need(3, "a table, keys and an action: add TABLE KEY:VALUE... ACTION(...)"); err != nil {
			return cmd, err
		}
		cmd.Table = f[1]
		err = parseAdd(&cmd, line)
	case "setdefault":
		if err := need(3, "a table and an action: setdefault TABLE ACTION(...)"); err != nil {
			return cmd, err
		}
		cmd.Table = f[1]
		rest := strings.TrimSpace(strings.SplitN(line, f[1], 2)[1])
		err = parseAction(rest, &cmd.Entry)
	case "register_write", "expect_register", "meter_color":
		if len(f) != 4 {
			return cmd, fmt.Errorf("%s needs NAME INDEX VALUE", f[0])
		}
		cmd.Name = f[1]
		if cmd.Index, err = parseUint64("index", f[2]); err == nil {
			cmd.Value, err = parseNumber(f[3])
		}
	case "value_set_add":
		if len(f) != 3 {
			return cmd, fmt.Errorf("value_set_add needs NAME VALUE")
		}
		cmd.Name = f[1]
		cmd.Value, err = parseNumber(f[2])
	case "packet", "expect":
		if err := need(2, "a port and hex bytes (or drop)"); err != nil {
			return cmd, err
		}
		if f[0] == "expect" && f[1] == "drop" && len(f) == 2 {
			cmd.Drop = true
			return cmd, nil
		}
		if cmd.Port, err = parseUint64("port", f[1]); err != nil {
			return cmd, err
		}
		hex := strings.Join(f[2:], "")
		if f[0] == "expect" {
			hex, cmd.Whole = strings.CutSuffix(hex, "$")
		}
		cmd.Data, cmd.Care, err = parseHex(hex, f[0] == "expect")
	case "wait": // p4c's tests wait for the switch; a run here processes each packet before the next line
	case "mc_mgrp_create":
		if len(f) != 2 {
			return cmd, fmt.Errorf("mc_mgrp_create needs GROUP")
		}
		cmd.Index, err = parseUint64("group", f[1])
	case "mc_node_create":
		if err := need(3, "a replication id and ports: mc_node_create RID PORT..."); err != nil {
			return cmd, err
		}
		if cmd.Index, err = parseUint64("replication id", f[1]); err != nil {
			return cmd, err
		}
		for _, w := range f[2:] {
			p, err := parseUint64("port", w)
			if err != nil {
				return cmd, err
			}
			cmd.Ports = append(cmd.Ports, p)
		}
	case "mirroring_add":
		if len(f) != 3 {
			return cmd, fmt.Errorf("mirroring_add needs SESSION PORT")
		}
		if cmd.Index, err = parseUint64("session", f[1]); err == nil {
			cmd.Port, err = parseUint64("port", f[2])
		}
	case "mc_node_associate":
		if len(f) != 3 {
			return cmd, fmt.Errorf("mc_node_associate needs GROUP HANDLE")
		}
		if cmd.Index, err = parseUint64("group", f[1]); err == nil {
			cmd.Value, err = parseNumber(f[2])
		}
	default:
		return cmd, fmt.Errorf("unknown command %q (commands: add, setdefault, register_write, meter_color, value_set_add, packet, expect, expect_register, wait, mc_mgrp_create, mc_node_create, mc_node_associate, mirroring_add)", f[0])
	}
	return cmd, err
}

// parseAdd reads `add TABLE [PRIORITY] KEY:VALUE ... ACTION(...)`. A word
// with a colon outside parentheses is a key (isValid():1 is one); the
// action starts at the first word that is not.
func parseAdd(cmd *STFCommand, line string) error {
	words := strings.Fields(line)[2:]
	if len(words) > 0 && !strings.ContainsAny(words[0], ":(") {
		p, err := strconv.Atoi(words[0])
		if err != nil {
			return fmt.Errorf("bad priority %q", words[0])
		}
		cmd.Entry.Priority = p
		words = words[1:]
	}
	i := 0
	for ; i < len(words) && colonOutsideParens(words[i]); i++ {
		name, value := splitKey(words[i])
		m, err := parseMatch(value)
		if err != nil {
			return fmt.Errorf("key %s: %v", name, err)
		}
		cmd.Entry.Keys = append(cmd.Entry.Keys, m)
		cmd.Entry.keyNames = append(cmd.Entry.keyNames, name)
	}
	if i == len(words) {
		return fmt.Errorf("add needs an action after the keys, as a() or a(p:1)")
	}
	return parseAction(strings.Join(words[i:], " "), &cmd.Entry)
}

// colonOutsideParens reports whether w has a ':' at parenthesis depth 0.
func colonOutsideParens(w string) bool { return keyColon(w) >= 0 }

// splitKey splits NAME:VALUE at the first colon outside parentheses.
func splitKey(w string) (string, string) {
	if i := keyColon(w); i >= 0 {
		return w[:i], w[i+1:]
	}
	return w, ""
}

// keyColon is the index of the first ':' outside parentheses, or -1.
func keyColon(w string) int {
	depth := 0
	for i, c := range w {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ':':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// parseAction reads ACTION(PARAM:VALUE, ...).
// parseAction reads NAME(PARAM:VALUE, ...) into the entry's action, its
// data and the data's parameter names.
func parseAction(s string, e *Entry) error {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open <= 0 || end < open {
		return fmt.Errorf("bad action %q: write NAME(PARAM:VALUE, ...)", s)
	}
	e.Action = strings.TrimSpace(s[:open])
	inner := strings.TrimSpace(s[open+1 : end])
	if inner == "" {
		return nil
	}
	for _, arg := range strings.Split(inner, ",") {
		param, value, ok := strings.Cut(strings.TrimSpace(arg), ":")
		if !ok {
			return fmt.Errorf("action argument %q needs PARAM:VALUE", arg)
		}
		v, err := parseNumber(strings.TrimSpace(value))
		if err != nil {
			return err
		}
		e.Data = append(e.Data, v)
		e.dataNames = append(e.dataNames, strings.TrimSpace(param))
	}
	return nil
}

// orderData puts an entry's action data in the order of the action's
// parameters, which the test names.
func orderData(t *ir.Table, e *Entry) error {
	var a *ir.Action
	for _, r := range t.Actions {
		if r.Action.Name == e.Action {
			a = r.Action
		}
	}
	if a == nil || len(e.dataNames) == 0 || len(e.dataNames) != len(a.Data()) {
		return nil // the action and the count are checked where the entry goes in
	}
	params := a.Data()
	ordered := make([]*big.Int, len(params))
	for i, name := range e.dataNames {
		j := slices.IndexFunc(params, func(p *ir.Var) bool { return p.Name == name })
		if j < 0 {
			var names []string
			for _, p := range params {
				names = append(names, p.Name)
			}
			return fmt.Errorf("action %s has no parameter %q (parameters: %s)", a.Name, name, strings.Join(names, ", "))
		}
		if ordered[j] != nil {
			return fmt.Errorf("action %s: parameter %s is given twice", a.Name, name)
		}
		ordered[j] = e.Data[i]
	}
	e.Data = ordered
	return nil
}

// wildcardDigits reads a ternary match written as p4c's tests write one:
// a 0x or 0b number whose * digits match anything (0x****0101).
func wildcardDigits(s string) (Match, error) {
	digits, bits := "", 0
	switch {
	case strings.HasPrefix(s, "0x"):
		digits, bits = s[2:], 4
	case strings.HasPrefix(s, "0b"):
		digits, bits = s[2:], 1
	default:
		return Match{}, fmt.Errorf("bad number %q: * digits are written in 0x or 0b numbers", s)
	}
	all := strings.Repeat("f", len(digits))
	if bits == 1 {
		all = strings.Repeat("1", len(digits))
	}
	value, mask := new(big.Int), new(big.Int)
	_, okV := value.SetString(strings.ReplaceAll(digits, "*", "0"), 1<<bits)
	_, okM := mask.SetString(maskDigits(digits, all), 1<<bits)
	if !okV || !okM {
		return Match{}, fmt.Errorf("bad number %q", s)
	}
	return Match{Kind: MatchTernary, Value: value, Mask: mask}, nil
}

// maskDigits is all's digits where digits has a digit, 0 where it has *.
func maskDigits(digits, all string) string {
	out := []byte(all)
	for i := range digits {
		if digits[i] == '*' {
			out[i] = '0'
		}
	}
	return string(out)
}

func parseMatch(s string) (Match, error) {
	switch {
	case s == "*" || s == "_":
		return Match{Kind: MatchAny}, nil
	case strings.Contains(s, "*"):
		return wildcardDigits(s)
	case strings.Contains(s, "&&&"):
		v, m, _ := strings.Cut(s, "&&&")
		value, err := parseNumber(v)
		if err != nil {
			return Match{}, err
		}
		mask, err := parseNumber(m)
		return Match{Kind: MatchTernary, Value: value, Mask: mask}, err
	case strings.Contains(s, ".."):
		lo, hi, _ := strings.Cut(s, "..")
		l, err := parseNumber(lo)
		if err != nil {
			return Match{}, err
		}
		h, err := parseNumber(hi)
		return Match{Kind: MatchRange, Value: l, Hi: h}, err
	case strings.Contains(s, "/"):
		v, n, _ := strings.Cut(s, "/")
		value, err := parseNumber(v)
		if err != nil {
			return Match{}, err
		}
		length, err := strconv.Atoi(n)
		if err != nil {
			return Match{}, fmt.Errorf("bad prefix length %q", n)
		}
		return Match{Kind: MatchLPM, Value: value, PrefixLen: length}, nil
	}
	v, err := parseNumber(s)
	return Match{Kind: MatchExact, Value: v}, err
}

// parseNumber reads 12, 0x0c, 0b1100, 10.0.0.1, or 00:11:22:33:44:55.
// maxNumberDigits bounds a number's text: P4's widest values, bit<2048>,
// take 617 decimal digits.
const maxNumberDigits = 700

// parseUint64 reads an index or a port, which must fit 64 bits.
func parseUint64(what, s string) (uint64, error) {
	v, err := parseNumber(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("bad %s %q", what, s)
	case !v.IsUint64():
		return 0, fmt.Errorf("%s %s is out of range", what, s)
	}
	return v.Uint64(), nil
}

func parseNumber(s string) (*big.Int, error) {
	if len(s) > maxNumberDigits {
		return nil, fmt.Errorf("a number of %d digits; no P4 value has that many", len(s))
	}
	if ip := net.ParseIP(s); ip != nil && strings.Count(s, ".") == 3 {
		return new(big.Int).SetBytes(ip.To4()), nil
	}
	if mac, err := net.ParseMAC(s); err == nil && strings.Count(s, ":") == 5 {
		return new(big.Int).SetBytes(mac), nil
	}
	v, ok := new(big.Int).SetString(strings.ReplaceAll(s, "_", ""), 0)
	if !ok || v.Sign() < 0 {
		return nil, fmt.Errorf("bad number %q", s)
	}
	return v, nil
}

// parseHex reads packet bytes; with wildcards, * stands for any nibble.
func parseHex(s string, wildcards bool) ([]byte, []byte, error) {
	if len(s)%2 != 0 {
		return nil, nil, fmt.Errorf("hex data has an odd number of digits (%d)", len(s))
	}
	care := make([]byte, len(s))
	clean := []byte(s)
	for i, c := range clean {
		care[i] = 1
		if c == '*' {
			if !wildcards {
				return nil, nil, fmt.Errorf("* is allowed only in expect")
			}
			clean[i], care[i] = '0', 0
		}
	}
	data, err := hex.DecodeString(string(clean))
	if err != nil {
		return nil, nil, fmt.Errorf("bad hex data: %v", err)
	}
	return data, care, nil
}

// ------------------------------------------------------------------ running

// Mismatch is one expectation a test run found broken.
type Mismatch struct {
	Line   int // the expect line
	Packet int // 1-based number of the packet it checks (0 for registers)
	Msg    string
}

func (m Mismatch) String() string {
	if m.Packet > 0 {
		return fmt.Sprintf("line %d: packet %d: %s", m.Line, m.Packet, m.Msg)
	}
	return fmt.Sprintf("line %d: %s", m.Line, m.Msg)
}

// STFResult summarizes a test run.
type STFResult struct {
	Packets, Expectations int
	// Mismatches are the first MaxMismatches broken expectations; More
	// counts the others.
	Mismatches []Mismatch
	More       int
}

// RunSTF runs parsed commands on a switch. Its error reports a command the
// program cannot take (an unknown table, a bad key) or a run-time fault;
// broken expectations are in the result.
func (sw *Switch) RunSTF(file string, cmds []STFCommand) (*STFResult, error) {
	return RunSTF(sw, file, cmds)
}

// STFTarget is a target packet tests run on: a Target that finds its
// tables by name (to order an entry's keys). It may also implement
// SetDefault, SetMeterColor and AddToValueSet as Switch does.
type STFTarget interface {
	Target
	Table(name string) (*ir.Table, error)
}

// RunSTF runs parsed commands on a target, as Switch.RunSTF does.
func RunSTF(sw STFTarget, file string, cmds []STFCommand) (*STFResult, error) {
	i := 0
	next := func() (STFCommand, error) {
		if i == len(cmds) {
			return STFCommand{}, io.EOF
		}
		i++
		return cmds[i-1], nil
	}
	return runSTF(context.Background(), sw, file, next)
}

// RunSTFStream runs a test file as it reads it, in memory bounded
// whatever its length (it keeps the first MaxMismatches mismatches and
// counts the rest), and stops when ctx ends.
func RunSTFStream(ctx context.Context, sw STFTarget, r *STFReader) (*STFResult, error) {
	return runSTF(ctx, sw, r.file, r.Next)
}

// MaxMismatches is how many mismatches a result lists; STFResult.More
// counts those past it.
const MaxMismatches = 1000

func runSTF(ctx context.Context, sw STFTarget, file string, next func() (STFCommand, error)) (*STFResult, error) {
	run := &stfRun{sw: sw, file: file, res: &STFResult{}, outs: map[uint64][]sentPacket{}, expects: map[uint64][]STFCommand{}}
	for {
		if err := ctx.Err(); err != nil {
			return run.res, fmt.Errorf("%s: stopped after %d packets: %w", file, run.res.Packets, err)
		}
		c, err := next()
		if err == io.EOF {
			run.unmet()
			return run.res, nil
		}
		if err != nil {
			return run.res, err
		}
		if err := run.do(c); err != nil {
			return run.res, &STFError{File: file, Line: c.Line, Msg: err.Error()}
		}
	}
}

// stfRun is a test run's state: the target, the result so far, the last
// packet's output (which expect drop checks), and per port the packets
// out and the expectations that have not met yet (one of the two is empty).
type stfRun struct {
	sw         STFTarget
	file       string
	res        *STFResult
	last       *Output
	lastPacket int
	outs       map[uint64][]sentPacket
	expects    map[uint64][]STFCommand
	// nodes are the multicast nodes created (mc_node_create), by
	// handle, and groups the handles associated with each group.
	nodes  []STFCommand
	groups map[uint64][]int
}

// sentPacket is a packet's output, with the number and line of its
// packet command.
type sentPacket struct {
	out          *Output
	number, line int
}

// do runs one command; its error is the command's fault.
func (r *stfRun) do(c STFCommand) error {
	if c.Kind == "add" || c.Kind == "setdefault" {
		if err := r.resolve(&c); err != nil {
			return err
		}
	}
	switch c.Kind {
	case "add":
		if err := orderKeys(r.sw, c.Table, &c.Entry); err != nil {
			return err
		}
		if err := entryFits(r.sw, c.Table, c.Entry); err != nil {
			return err
		}
		return r.sw.AddEntry(c.Table, c.Entry)
	case "setdefault":
		t, ok := r.sw.(interface {
			SetDefault(table, action string, data []*big.Int) error
		})
		if !ok {
			return fmt.Errorf("this target cannot change a default action")
		}
		return t.SetDefault(c.Table, c.Entry.Action, c.Entry.Data)
	case "register_write":
		return r.sw.RegisterWrite(c.Name, c.Index, c.Value)
	case "meter_color":
		t, ok := r.sw.(interface {
			SetMeterColor(name string, index, color uint64) error
		})
		if !ok {
			return fmt.Errorf("this target has no meters")
		}
		if !c.Value.IsUint64() || c.Value.Uint64() > 2 {
			return fmt.Errorf("colour %s: want 0 (green), 1 (yellow) or 2 (red)", c.Value)
		}
		return t.SetMeterColor(c.Name, c.Index, c.Value.Uint64())
	case "value_set_add":
		t, ok := r.sw.(interface {
			AddToValueSet(name string, v *big.Int) error
		})
		if !ok {
			return fmt.Errorf("this target has no value sets")
		}
		return t.AddToValueSet(c.Name, c.Value)
	case "packet":
		out, err := r.sw.Process(c.Port, c.Data)
		if err != nil {
			return err
		}
		r.last = out
		r.res.Packets++
		r.lastPacket = r.res.Packets
		if !out.Dropped {
			for _, o := range append([]*Output{out}, out.Copies...) {
				r.outs[o.Port] = append(r.outs[o.Port], sentPacket{out: o, number: r.lastPacket, line: c.Line})
				r.meet(o.Port)
			}
		}
	case "mc_mgrp_create", "mc_node_create", "mc_node_associate":
		return r.multicast(c)
	case "mirroring_add":
		t, ok := r.sw.(interface{ SetMirrorSession(session, port uint64) })
		if !ok {
			return fmt.Errorf("this target has no clone sessions")
		}
		t.SetMirrorSession(c.Index, c.Port)
	case "expect":
		r.res.Expectations++
		if c.Drop {
			return r.expectDrop(c)
		}
		r.expects[c.Port] = append(r.expects[c.Port], c)
		r.meet(c.Port)
	case "expect_register":
		r.res.Expectations++
		got, err := r.sw.RegisterRead(c.Name, c.Index)
		if err != nil {
			return err
		}
		if got.Cmp(c.Value) != 0 {
			r.mismatch(Mismatch{Line: c.Line, Msg: fmt.Sprintf("register %s[%d]: got %s, want %s", c.Name, c.Index, hexOf(got), hexOf(c.Value))})
		}
	}
	return nil
}

// multicast runs a multicast command: the target's groups change when a
// node joins one.
func (r *stfRun) multicast(c STFCommand) error {
	t, ok := r.sw.(interface {
		SetMulticastGroup(grp uint64, replicas []Replica)
	})
	if !ok {
		return fmt.Errorf("this target has no multicast groups")
	}
	if r.groups == nil {
		r.groups = map[uint64][]int{}
	}
	switch c.Kind {
	case "mc_mgrp_create":
		r.groups[c.Index] = nil
	case "mc_node_create":
		r.nodes = append(r.nodes, c)
	case "mc_node_associate":
		handles, ok := r.groups[c.Index]
		h := c.Value.Int64()
		if !ok {
			return fmt.Errorf("group %d is not created (mc_mgrp_create)", c.Index)
		}
		if !c.Value.IsInt64() || h < 0 || h >= int64(len(r.nodes)) {
			return fmt.Errorf("no node has handle %s (mc_node_create made %d)", c.Value, len(r.nodes))
		}
		r.groups[c.Index] = append(handles, int(h))
		var reps []Replica
		for _, n := range r.groups[c.Index] {
			for _, p := range r.nodes[n].Ports {
				reps = append(reps, Replica{Port: p, Rid: r.nodes[n].Index})
			}
		}
		t.SetMulticastGroup(c.Index, reps)
	}
	return nil
}

// resolve turns the table and action names of an add or setdefault
// written as p4c's tests write them (control.table, control.action,
// control.subcontrol.table) into the program's, when they are not its
// own already, and puts the action data in the parameters' order.
func (r *stfRun) resolve(c *STFCommand) error {
	var t *ir.Table
	for _, name := range p4cNames(c.Table) {
		if found, err := r.sw.Table(name); err == nil {
			c.Table, t = name, found
			break
		}
	}
	if t == nil {
		return nil // the error names the table as written
	}
	for _, name := range p4cNames(c.Entry.Action) {
		if slices.ContainsFunc(t.Actions, func(a *ir.ActionRef) bool { return a.Action.Name == name }) {
			c.Entry.Action = name
			break
		}
	}
	return orderData(t, &c.Entry)
}

// p4cNames are the names p4hls may give what p4c calls name: the name
// itself; p4c's dotted path to an inlined block's object (c.t), which
// p4hls writes c_t; and both without the first component (p4c's tests
// name a control's objects after the control: ingress.t).
func p4cNames(name string) []string {
	out := []string{name, strings.ReplaceAll(name, ".", "_")}
	if _, rest, ok := strings.Cut(name, "."); ok {
		out = append(out, rest, strings.ReplaceAll(rest, ".", "_"))
	}
	return out
}

// meet checks the packets out of port against the expectations for it,
// in order, as far as both go.
func (r *stfRun) meet(port uint64) {
	outs, expects := r.outs[port], r.expects[port]
	n := min(len(outs), len(expects))
	for i := range n {
		if msg := compareOutput(outs[i].out, expects[i]); msg != "" {
			r.mismatch(Mismatch{Line: expects[i].Line, Packet: outs[i].number, Msg: msg})
		}
	}
	r.outs[port], r.expects[port] = outs[n:], expects[n:]
}

// expectDrop checks that the last packet came out nowhere; one that came
// out is not left for another expectation.
func (r *stfRun) expectDrop(c STFCommand) error {
	if r.last == nil {
		return fmt.Errorf("expect drop before any packet")
	}
	if r.last.Dropped {
		return nil
	}
	r.mismatch(Mismatch{Line: c.Line, Packet: r.lastPacket, Msg: compareOutput(r.last, c)})
	outs := r.outs[r.last.Port]
	if len(outs) > 0 && outs[len(outs)-1].number == r.lastPacket {
		r.outs[r.last.Port] = outs[:len(outs)-1]
	}
	return nil
}

// unmet reports, at the end of the test, the packets no expectation met
// and the expectations no packet met, port by port.
func (r *stfRun) unmet() {
	for _, port := range slices.Sorted(maps.Keys(r.outs)) {
		for _, o := range r.outs[port] {
			r.mismatch(Mismatch{Line: o.line, Packet: o.number, Msg: fmt.Sprintf("came out on port %d, where no expect awaits a packet: %x", port, o.out.Data)})
		}
	}
	for _, port := range slices.Sorted(maps.Keys(r.expects)) {
		for _, c := range r.expects[port] {
			r.mismatch(Mismatch{Line: c.Line, Msg: fmt.Sprintf("no packet came out on port %d for this expect", port)})
		}
	}
}

func (r *stfRun) mismatch(m Mismatch) {
	if len(r.res.Mismatches) < MaxMismatches {
		r.res.Mismatches = append(r.res.Mismatches, m)
		return
	}
	r.res.More++
}

// entryFits refuses an entry with a key or an action's data wider than
// its field: a test's number is checked, never cut to fit.
func entryFits(sw STFTarget, table string, e Entry) error {
	t, err := sw.Table(table)
	if err != nil {
		return err
	}
	for i, m := range e.Keys {
		if i >= len(t.Keys) {
			break
		}
		w := bitsOf(t.Keys[i].Expr.Type()).Width
		if m.PrefixLen > w {
			return fmt.Errorf("key %s: a prefix of %d bits in bit<%d>", t.Keys[i].Name, m.PrefixLen, w)
		}
		for _, v := range []*big.Int{m.Value, m.Mask, m.Hi} {
			if err := fitsBits(v, w); err != nil {
				return fmt.Errorf("key %s: %w", t.Keys[i].Name, err)
			}
		}
	}
	for _, ar := range t.Actions {
		if ar.Action.Name != e.Action {
			continue
		}
		for i, p := range ar.Action.Data() {
			if i < len(e.Data) {
				if err := fitsBits(e.Data[i], bitsOf(p.Type).Width); err != nil {
					return fmt.Errorf("action %s, %s: %w", e.Action, p.Name, err)
				}
			}
		}
	}
	return nil
}

// fitsBits refuses a value (nil: none) that bit<w> cannot hold.
func fitsBits(v *big.Int, w int) error {
	if v != nil && v.BitLen() > w {
		return fmt.Errorf("%s does not fit bit<%d>", hexOf(v), w)
	}
	return nil
}

func hexOf(v *big.Int) string { return "0x" + v.Text(16) }

// orderKeys puts an entry's keys in the table's order, matching each name
// to a key's control-plane name or a unique suffix of it.
// stackIndexes finds the stack indexes of a key name as p4c's tests write
// them (extra$0.h).
var stackIndexes = regexp.MustCompile(`\$([0-9]+)`)

func orderKeys(sw STFTarget, table string, e *Entry) error {
	t, err := sw.Table(table)
	if err != nil {
		return err
	}
	if len(e.keyNames) == 0 {
		return nil
	}
	ordered := make([]Match, len(t.Keys))
	set := make([]bool, len(t.Keys))
	for i, name := range e.keyNames {
		name = stackIndexes.ReplaceAllString(name, "[$1]") // p4c's JSON writes stack[0] stack$0
		k := -1
		for j, key := range t.Keys {
			if key.Name == name || strings.HasSuffix(key.Name, "."+name) {
				if k >= 0 {
					return fmt.Errorf("key %q of table %s is ambiguous; write its full name", name, table)
				}
				k = j
			}
		}
		if k < 0 {
			var names []string
			for _, key := range t.Keys {
				names = append(names, key.Name)
			}
			return fmt.Errorf("table %s has no key %q (keys: %s)", table, name, strings.Join(names, ", "))
		}
		ordered[k], set[k] = e.Keys[i], true
	}
	for j, ok := range set {
		if !ok {
			ordered[j] = Match{Kind: MatchAny} // an unnamed key matches anything
			if t.Keys[j].Match == ir.MatchExact || t.Keys[j].Match == ir.MatchLPM {
				return fmt.Errorf("table %s: the entry gives no value for key %s", table, t.Keys[j].Name)
			}
		}
	}
	e.Keys = ordered
	return nil
}

// compareOutput returns "" when out meets the expectation, else what differs.
func compareOutput(out *Output, want STFCommand) string {
	switch {
	case want.Drop && out.Dropped:
		return ""
	case want.Drop:
		return fmt.Sprintf("want drop, got a packet on port %d: %x", out.Port, out.Data)
	case out.Dropped:
		return fmt.Sprintf("dropped, want a packet on port %d", want.Port)
	case out.Port != want.Port:
		return fmt.Sprintf("port: got %d, want %d", out.Port, want.Port)
	}
	var diffs []string
	if len(out.Data) < len(want.Data) || want.Whole && len(out.Data) > len(want.Data) {
		diffs = append(diffs, fmt.Sprintf("length: got %d bytes, want %d", len(out.Data), len(want.Data)))
	}
	for nib := 0; nib < 2*min(len(out.Data), len(want.Data)); nib++ {
		if want.Care[nib] == 0 {
			continue
		}
		g, w := nibble(out.Data, nib), nibble(want.Data, nib)
		if g != w {
			d := describeBit(out, want.Data, nib*4)
			if len(diffs) == 0 || diffs[len(diffs)-1] != d {
				diffs = append(diffs, d)
			}
		}
	}
	return strings.Join(diffs, "; ")
}

func nibble(b []byte, i int) byte {
	if i%2 == 0 {
		return b[i/2] >> 4
	}
	return b[i/2] & 0xf
}

// describeBit names the field that holds output bit `bit` and shows both
// values of it; past the headers, it names the payload byte.
func describeBit(out *Output, want []byte, bit int) string {
	for _, h := range out.Emitted {
		off := h.OffsetBit
		for _, f := range h.Type.Fields {
			w := ir.WidthBits(f.Type)
			if bit >= off && bit < off+w {
				return fmt.Sprintf("%s.%s: got 0x%s, want 0x%s", h.Name, f.Name,
					bitsAt(out.Data, off, w).Text(16), bitsAt(want, off, w).Text(16))
			}
			off += w
		}
	}
	i := bit / 8
	return fmt.Sprintf("byte %d: got 0x%02x, want 0x%02x", i, out.Data[i], want[i])
}

func bitsAt(data []byte, off, w int) *big.Int {
	r := new(big.Int)
	for i := 0; i < w; i++ {
		b := off + i
		r.Lsh(r, 1)
		if b/8 < len(data) && data[b/8]>>(7-uint(b%8))&1 == 1 {
			r.SetBit(r, 0, 1)
		}
	}
	return r
}

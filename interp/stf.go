package interp

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
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
//	expect PORT HEX...                   (* is a don't-care nibble)
//	expect drop
//	expect_register REGISTER INDEX VALUE
//
// A KEY is the key's control-plane name (hdr.ipv4.dstAddr) or a unique
// suffix of it (dstAddr). A VALUE is decimal, 0x hex, 0b binary, a dotted
// IPv4 address or a colon-separated MAC address; a key's VALUE may also be
// VALUE&&&MASK (ternary), VALUE/LENGTH (lpm), LOW..HIGH (range) or *
// (anything). An expect checks the output of the packet line before it.

// STFCommand is one parsed line.
type STFCommand struct {
	Line int
	Kind string // add, setdefault, register_write, meter_color, value_set_add, packet, expect, expect_register
	// add, setdefault: the table and the entry.
	Table string
	Entry Entry
	// register_write, expect_register, meter_color, value_set_add.
	Name  string
	Index uint64
	Value *big.Int
	// packet, expect.
	Port uint64
	Data []byte
	Care []byte // per nibble of Data: 1 when it is checked
	Drop bool
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
		cmd.Entry.Action, cmd.Entry.Data, err = parseAction(rest)
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
		cmd.Data, cmd.Care, err = parseHex(strings.Join(f[2:], ""), f[0] == "expect")
	default:
		return cmd, fmt.Errorf("unknown command %q (commands: add, setdefault, register_write, meter_color, value_set_add, packet, expect, expect_register)", f[0])
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
	action, data, err := parseAction(strings.Join(words[i:], " "))
	if err != nil {
		return err
	}
	cmd.Entry.Action, cmd.Entry.Data = action, data
	return nil
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
func parseAction(s string) (string, []*big.Int, error) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open <= 0 || end < open {
		return "", nil, fmt.Errorf("bad action %q: write NAME(PARAM:VALUE, ...)", s)
	}
	name := strings.TrimSpace(s[:open])
	var data []*big.Int
	inner := strings.TrimSpace(s[open+1 : end])
	if inner == "" {
		return name, nil, nil
	}
	for _, arg := range strings.Split(inner, ",") {
		_, value, ok := strings.Cut(strings.TrimSpace(arg), ":")
		if !ok {
			return "", nil, fmt.Errorf("action argument %q needs PARAM:VALUE", arg)
		}
		v, err := parseNumber(strings.TrimSpace(value))
		if err != nil {
			return "", nil, err
		}
		data = append(data, v)
	}
	return name, data, nil
}

func parseMatch(s string) (Match, error) {
	switch {
	case s == "*" || s == "_":
		return Match{Kind: MatchAny}, nil
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
	run := &stfRun{sw: sw, file: file, res: &STFResult{}}
	for {
		if err := ctx.Err(); err != nil {
			return run.res, fmt.Errorf("%s: stopped after %d packets: %w", file, run.res.Packets, err)
		}
		c, err := next()
		if err == io.EOF {
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
// packet's output (which an expect checks).
type stfRun struct {
	sw         STFTarget
	file       string
	res        *STFResult
	last       *Output
	lastPacket int
}

// do runs one command; its error is the command's fault.
func (r *stfRun) do(c STFCommand) error {
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
	case "expect":
		r.res.Expectations++
		if r.last == nil {
			return fmt.Errorf("expect before any packet")
		}
		if msg := compareOutput(r.last, c); msg != "" {
			r.mismatch(Mismatch{Line: c.Line, Packet: r.lastPacket, Msg: msg})
		}
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
	for nib := 0; nib < 2*max(len(out.Data), len(want.Data)); nib++ {
		if nib/2 >= len(out.Data) || nib/2 >= len(want.Data) {
			diffs = append(diffs, fmt.Sprintf("length: got %d bytes, want %d", len(out.Data), len(want.Data)))
			break
		}
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

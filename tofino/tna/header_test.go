package tna_test

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
)

// The names a TNA program p4hls writes uses from tna.p4, as Intel's
// headers declare them: tofino1_specs.p4, tofino1_base.p4 and
// tofino1_arch.p4 in p4c's backends/tofino/bf-p4c/p4include (read at
// p4c commit 34b86e9bac), written down here by hand. The bundled tna.p4
// must declare each the same way, so that a program checked with it
// checks with Intel's (p4c's mid end, for one, deletes the locals a
// RegisterAction's apply reads unless apply is @synchronous).

// intelDecl is a name's declaration in Intel's headers: lines of it,
// comments and spacing aside. Where the bundled header cannot say the
// same yet, bundled holds what it says instead and why says why.
type intelDecl struct {
	lines, bundled []string
	why            string
}

var intelDecls = map[string]intelDecl{
	// tofino1_specs.p4 (PORT_ID_WIDTH is 9, QUEUE_ID_WIDTH 5, ...).
	"PortId_t":           {lines: []string{"typedef bit<9> PortId_t;"}},
	"MulticastGroupId_t": {lines: []string{"typedef bit<16> MulticastGroupId_t;"}},
	"QueueId_t":          {lines: []string{"typedef bit<5> QueueId_t;"}},
	"MirrorType_t":       {lines: []string{"typedef bit<3> MirrorType_t;"}},
	"MirrorId_t":         {lines: []string{"typedef bit<10> MirrorId_t;"}},
	"ResubmitType_t":     {lines: []string{"typedef bit<3> ResubmitType_t;"}},
	"DigestType_t":       {lines: []string{"typedef bit<3> DigestType_t;"}},
	"ReplicationId_t":    {lines: []string{"typedef bit<16> ReplicationId_t;"}},
	"L1ExclusionId_t":    {lines: []string{"typedef bit<16> L1ExclusionId_t;"}},
	"L2ExclusionId_t":    {lines: []string{"typedef bit<9> L2ExclusionId_t;"}},
	"PORT_METADATA_SIZE": {lines: []string{"const bit<32> PORT_METADATA_SIZE = 32w64;"}},
	// tofino1_base.p4.
	"PARSER_ERROR_NO_MATCH":    {lines: []string{"const bit<16> PARSER_ERROR_NO_MATCH = 16w0x0001;"}},
	"PARSER_ERROR_PARTIAL_HDR": {lines: []string{"const bit<16> PARSER_ERROR_PARTIAL_HDR = 16w0x0002;"}},
	"Hash":                     {lines: []string{"extern Hash<W> {", "Hash(HashAlgorithm_t algo);", "W get<D>(in D data);"}},
	"Random":                   {lines: []string{"extern Random<W> {", "Random();", "W get();"}},
	"Register": {lines: []string{"extern Register<T, I> {", "Register(bit<32> size);", "Register(bit<32> size, T initial_value);",
		"T read(in I index);", "T write(in I index, in T value);"}},
	"RegisterAction": {
		lines: []string{"extern RegisterAction<T, I, U> {", "RegisterAction(Register<_, _> reg);", "U execute(in I index);", "U execute_log();",
			"@synchronous(execute, execute_log) abstract void apply(inout T value, @optional out U rv);"}},
	"Counter":       {lines: []string{"extern Counter<W, I> {", "Counter(bit<32> size, CounterType_t type);", "void count(in I index, @optional in bit<32> adjust_byte_count);"}},
	"DirectCounter": {lines: []string{"extern DirectCounter<W> {", "DirectCounter(CounterType_t type);", "void count(@optional in bit<32> adjust_byte_count);"}},
	"Meter":         {lines: []string{"extern Meter<I> {", "Meter(bit<32> size, MeterType_t type);", "bit<8> execute(in I index, @optional in bit<32> adjust_byte_count);"}},
	"DirectMeter":   {lines: []string{"extern DirectMeter {", "DirectMeter(MeterType_t type);", "bit<8> execute(@optional in bit<32> adjust_byte_count);"}},
	"Digest":        {lines: []string{"extern Digest<T> {", "Digest(DigestType_t digest_type);", "void pack(in T data);"}},
	"Checksum": {lines: []string{"extern Checksum {", "Checksum();", "void add<T>(in T data);", "bool verify();", "bit<16> get();",
		"bit<16> update<T>(in T data, @optional in bool zeros_as_ones);"}},
	// tofino1_arch.p4.
	"IngressParserT": {lines: []string{"parser IngressParserT<H, M>(packet_in pkt, out H hdr, out M ig_md, @optional out ingress_intrinsic_metadata_t ig_intr_md, " +
		"@optional out ingress_intrinsic_metadata_for_tm_t ig_intr_md_for_tm, @optional out ingress_intrinsic_metadata_from_parser_t ig_intr_md_from_prsr);"}},
	"IngressT": {lines: []string{"control IngressT<H, M>(inout H hdr, inout M ig_md, @optional in ingress_intrinsic_metadata_t ig_intr_md, " +
		"@optional in ingress_intrinsic_metadata_from_parser_t ig_intr_md_from_prsr, @optional inout ingress_intrinsic_metadata_for_deparser_t ig_intr_md_for_dprsr, " +
		"@optional inout ingress_intrinsic_metadata_for_tm_t ig_intr_md_for_tm);"}},
	"Pipeline": {lines: []string{"package Pipeline<IH, IM, EH, EM>(IngressParserT<IH, IM> ingress_parser, IngressT<IH, IM> ingress, " +
		"IngressDeparserT<IH, IM> ingress_deparser, EgressParserT<EH, EM> egress_parser, EgressT<EH, EM> egress, EgressDeparserT<EH, EM> egress_deparser);"}},
	"Switch": {lines: []string{"package Switch<IH0, IM0, EH0, EM0, IH1, IM1, EH1, EM1, IH2, IM2, EH2, EM2, IH3, IM3, EH3, EM3>(Pipeline<IH0, IM0, EH0, EM0> pipe0, " +
		"@optional Pipeline<IH1, IM1, EH1, EM1> pipe1, @optional Pipeline<IH2, IM2, EH2, EM2> pipe2, @optional Pipeline<IH3, IM3, EH3, EM3> pipe3);"}},
}

// intelTypes are the types the written programs use, as Intel declares
// them: a struct's or header's fields (name:width, in order), an enum's
// members.
var intelTypes = map[string]string{
	"ingress_intrinsic_metadata_t": "resubmit_flag:1 _pad1:1 packet_version:2 _pad2:3 ingress_port:9 ingress_mac_tstamp:48",
	"ingress_intrinsic_metadata_for_tm_t": "ucast_egress_port:9 bypass_egress:1 deflect_on_drop:1 ingress_cos:3 qid:5 icos_for_copy_to_cpu:3 copy_to_cpu:1 " +
		"packet_color:2 disable_ucast_cutthru:1 enable_mcast_cutthru:1 mcast_grp_a:16 mcast_grp_b:16 level1_mcast_hash:13 level2_mcast_hash:13 " +
		"level1_exclusion_id:16 level2_exclusion_id:9 rid:16",
	"ingress_intrinsic_metadata_from_parser_t":  "global_tstamp:48 global_ver:32 parser_err:16",
	"ingress_intrinsic_metadata_for_deparser_t": "drop_ctl:3 digest_type:3 resubmit_type:3 mirror_type:3",
	"egress_intrinsic_metadata_t": "_pad0:7 egress_port:9 _pad1:5 enq_qdepth:19 _pad2:6 enq_congest_stat:2 _pad3:14 enq_tstamp:18 _pad4:5 deq_qdepth:19 " +
		"_pad5:6 deq_congest_stat:2 app_pool_congest_stat:8 _pad6:14 deq_timedelta:18 egress_rid:16 _pad7:7 egress_rid_first:1 _pad8:3 egress_qid:5 " +
		"_pad9:5 egress_cos:3 _pad10:7 deflection_flag:1 pkt_length:16",
	"egress_intrinsic_metadata_from_parser_t":     "global_tstamp:48 global_ver:32 parser_err:16",
	"egress_intrinsic_metadata_for_deparser_t":    "drop_ctl:3 mirror_type:3 coalesce_flush:1 coalesce_length:7",
	"egress_intrinsic_metadata_for_output_port_t": "capture_tstamp_on_tx:1 update_delay_on_tx:1",
	"HashAlgorithm_t": "IDENTITY RANDOM XOR8 XOR16 XOR32 CRC8 CRC16 CRC32 CRC64 CUSTOM",
	"CounterType_t":   "PACKETS BYTES PACKETS_AND_BYTES",
	"MeterType_t":     "PACKETS BYTES",
	"MeterColor_t":    "GREEN=0 YELLOW=1 RED=3",
}

// normalized is P4 text without comments, its spaces collapsed and none
// inside parentheses' edges.
func normalized(text string) string {
	text = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`).ReplaceAllString(text, " ")
	text = strings.Join(strings.Fields(text), " ")
	return strings.NewReplacer("( ", "(", " )", ")").Replace(text)
}

// declaredIn lists the names a header declares at its top level: an extern
// function's name is the one before its parameters (extern T max<T>(...)).
func declaredIn(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`\bextern [^;{]*?\b(\w+)\s*(?:<[\w, ]*>)?\s*\(|\b(?:extern|struct|header|enum(?: bit<\d+>)?|parser|control|package)\s+(\w+)|typedef [^;]*?\b(\w+);|const [^=;]*?\b(\w+) =`).FindAllStringSubmatch(text, -1) {
		for _, name := range m[1:] {
			if name != "" {
				out[name] = true
			}
		}
	}
	return out
}

// bundledTNA is the bundled tna.p4's text.
func bundledTNA(t *testing.T) string {
	t.Helper()
	data, err := fs.ReadFile(frontend.Bundled(), "tna.p4")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkTNANames checks that every name a written TNA program uses from
// the bundled tna.p4 is one whose Intel declaration the test records,
// and that the bundled header declares it so (TestBundledTNA).
func checkTNANames(t *testing.T, program []byte) {
	t.Helper()
	declared := declaredIn(normalized(bundledTNA(t)))
	var missing []string
	for _, id := range regexp.MustCompile(`\b\w+\b`).FindAllString(normalized(string(program)), -1) {
		_, decl := intelDecls[id]
		_, typ := intelTypes[id]
		if declared[id] && !decl && !typ && !slices.Contains(missing, id) {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the TNA program uses %s from tna.p4, whose Intel declarations the test does not record", strings.Join(missing, ", "))
	}
}

// TestBundledTNA: the bundled tna.p4 declares every name the test records
// as Intel does, or, where it cannot yet, as the record says and why.
func TestBundledTNA(t *testing.T) {
	text := normalized(bundledTNA(t))
	for name, d := range intelDecls {
		lines := d.lines
		if d.bundled != nil {
			lines = d.bundled
			t.Logf("%s: the bundled tna.p4 differs from Intel's: %s", name, d.why)
		}
		for _, l := range lines {
			if !strings.Contains(text, normalized(l)) {
				t.Errorf("%s: the bundled tna.p4 has no %q", name, l)
			}
		}
	}
	var d diag.List
	prog, _, err := frontend.Load(context.Background(), "tna_types.p4", []byte("#include <core.p4>\n#include <tna.p4>\nheader p4hls_unused_t { bit<8> x; }\n"), frontend.Options{}, &d)
	if err != nil || prog == nil {
		t.Fatalf("tna.p4 does not load: %v\n%s", err, &d)
	}
	for name, want := range intelTypes {
		if got := typeFact(prog, name); got != want {
			t.Errorf("%s: the bundled tna.p4 declares %q, Intel's %q", name, got, want)
		}
	}
}

// typeFact is how a loaded program declares a struct, header or enum, in
// intelTypes's form.
func typeFact(prog *ir.Program, name string) string {
	for _, ty := range prog.Types {
		var out []string
		switch ty := ty.(type) {
		case *ir.Struct:
			if ty.Name != name {
				continue
			}
			for _, f := range ty.Fields {
				out = append(out, fmt.Sprintf("%s:%d", f.Name, ir.WidthBits(f.Type)))
			}
		case *ir.Enum:
			if ty.Name != name {
				continue
			}
			for i, m := range ty.Members {
				if ty.Underlying != nil && i < len(ty.Values) {
					m = fmt.Sprintf("%s=%s", m, ty.Values[i])
				}
				out = append(out, m)
			}
		default:
			continue
		}
		return strings.Join(out, " ")
	}
	return "(not declared)"
}

// TestTofinoForP4C: the forms of the written programs that p4c's front
// and mid end refuse are not written. Const entries carry no priorities
// (p4c: "Table with 'const' entries cannot have priorities"): their order
// is their priority, the first that matches wins. A header union's own
// isValid() is written over its members (p4c's FlattenHeaderUnion leaves
// it behind). The parser's no-match flag is PARSER_ERROR_NO_MATCH.
func TestTofinoForP4C(t *testing.T) {
	tests := []struct {
		program     string
		has, hasNot []string
	}{
		{"acl.p4", []string{"const entries = {\n            (0xa000000 &&& 0xff000000, default, default, default, default): permit_to(9w1);\n" +
			"            (default, default, 17, default, 161): deny();\n            (default, default, 6, default, 23): deny();\n        }"}, []string{"priority="}},
		{"range_match.p4", nil, []string{"priority="}},
		{"header_union.p4", []string{"if (((hdr.ip.v4.isValid() || hdr.ip.v6.isValid()) && (meta.hops == 8w0))) {"}, []string{"hdr.ip.isValid()"}},
		{"lookahead_verify.p4", []string{"(ig_prsr_md.parser_err & PARSER_ERROR_NO_MATCH) != 16w0"}, []string{"NO_TCAM"}},
	}
	for _, tc := range tests {
		t.Run(tc.program, func(t *testing.T) {
			text := string(tnaText(t, compileCorpus(t, tc.program)))
			for _, want := range tc.has {
				if !strings.Contains(text, want) {
					t.Errorf("no %q in\n%s", want, text)
				}
			}
			for _, bad := range tc.hasNot {
				if strings.Contains(text, bad) {
					t.Errorf("%q in\n%s", bad, text)
				}
			}
		})
	}
}

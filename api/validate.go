package api

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/backends"
	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// Limits bound what one request may hold. A request past one is refused
// with InvalidArgument naming the field; a message past MaxRequestBytes
// is refused before it is read (ResourceExhausted over gRPC, 413 over
// HTTP).
type Limits struct {
	MaxRequestBytes int // the encoded request
	MaxFiles        int // entries of files
	MaxFileBytes    int // one file's text
	MaxProgramBytes int // all the files' text
	MaxPathBytes    int // one path
	MaxPathDepth    int // folders in one path
	MaxDefines      int
	MaxIncludeDirs  int
	MaxLimit        int // a stage, ALU, table or entry count
	MaxVerify       int // verify_packets
}

// DefaultLimits are generous for P4 programs (the corpus's largest is
// 40 KB) and small for a server.
func DefaultLimits() Limits {
	return Limits{MaxRequestBytes: 8 << 20, MaxFiles: 256, MaxFileBytes: 2 << 20, MaxProgramBytes: 4 << 20,
		MaxPathBytes: 512, MaxPathDepth: 16, MaxDefines: 256, MaxIncludeDirs: 32, MaxLimit: 1 << 20, MaxVerify: 1_000_000}
}

// violations collects what is wrong with a request, field by field.
type violations []*errdetails.BadRequest_FieldViolation

func (v *violations) add(field, format string, args ...any) {
	*v = append(*v, &errdetails.BadRequest_FieldViolation{Field: field, Description: fmt.Sprintf(format, args...)})
}

// err is InvalidArgument naming every field at fault, with the fields in
// a BadRequest detail for clients that read them; nil when none is.
func (v violations) err() error {
	if len(v) == 0 {
		return nil
	}
	var msgs []string
	for _, f := range v {
		msgs = append(msgs, f.Field+": "+f.Description)
	}
	st := status.New(codes.InvalidArgument, strings.Join(msgs, "; "))
	if d, err := st.WithDetails(&errdetails.BadRequest{FieldViolations: v}); err == nil {
		st = d
	}
	return st.Err()
}

// checkFiles checks the program's files, main and include folders, the
// part of a request Compile and Check share.
func (l Limits) checkFiles(v *violations, files map[string]string, main string, includeDirs []string, defines map[string]string) {
	switch {
	case len(files) == 0:
		v.add("files", "no files: want the main file and its includes, path to text")
	case len(files) > l.MaxFiles:
		v.add("files", "%d files; at most %d", len(files), l.MaxFiles)
	}
	total := 0
	for _, name := range sortedKeys(files) {
		text := files[name]
		field := fmt.Sprintf("files[%q]", name)
		if why := l.badPath(name); why != "" {
			v.add(field, "%s", why)
		}
		if len(text) > l.MaxFileBytes {
			v.add(field, "%d bytes; a file may hold at most %d", len(text), l.MaxFileBytes)
		}
		if !utf8.ValidString(text) {
			v.add(field, "not UTF-8 text (an invalid byte at offset %d)", invalidAt(text))
		}
		total += len(text)
	}
	if total > l.MaxProgramBytes {
		v.add("files", "%d bytes in all; at most %d", total, l.MaxProgramBytes)
	}
	switch _, ok := files[main]; {
	case main == "":
		v.add("main", "missing: want the path of the file to compile, a key of files")
	case !ok:
		v.add("main", "%q is not a key of files", main)
	}
	if len(includeDirs) > l.MaxIncludeDirs {
		v.add("include_dirs", "%d folders; at most %d", len(includeDirs), l.MaxIncludeDirs)
	}
	for i, dir := range includeDirs {
		if dir == "." {
			continue // the root of files
		}
		if why := l.badPath(dir); why != "" {
			v.add(fmt.Sprintf("include_dirs[%d]", i), "%s", why)
		}
	}
	l.checkDefines(v, defines)
}

// macroName is a C identifier.
var macroName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (l Limits) checkDefines(v *violations, defines map[string]string) {
	if len(defines) > l.MaxDefines {
		v.add("defines", "%d macros; at most %d", len(defines), l.MaxDefines)
	}
	for _, name := range sortedKeys(defines) {
		if !macroName.MatchString(name) {
			v.add(fmt.Sprintf("defines[%q]", name), "not a macro name (a letter or _, then letters, digits or _)")
		}
		if len(defines[name]) > l.MaxPathBytes {
			v.add(fmt.Sprintf("defines[%q]", name), "a body of %d bytes; at most %d", len(defines[name]), l.MaxPathBytes)
		}
	}
}

// badPath says why name is not a path of a request's files, or "": a
// path is relative, in "/"-separated folders, with no "", "." or ".."
// part (so it names one file, inside the request, one way).
func (l Limits) badPath(name string) string {
	switch {
	case name == "":
		return "an empty path"
	case len(name) > l.MaxPathBytes:
		return fmt.Sprintf("a path of %d bytes; at most %d", len(name), l.MaxPathBytes)
	case !utf8.ValidString(name) || strings.ContainsAny(name, "\x00\\"):
		return "a path must be UTF-8 without NUL or backslash (folders are separated by /)"
	case strings.HasPrefix(name, "/") || len(name) > 1 && name[1] == ':':
		return "an absolute path; paths are relative to the request's root"
	case path.Clean(name) != name || slices.Contains(strings.Split(name, "/"), ".."):
		return `a path must be clean and stay inside the request: no "..", ".", or empty folder names`
	case strings.Count(name, "/") >= l.MaxPathDepth:
		return fmt.Sprintf("nested %d folders deep; at most %d", strings.Count(name, "/"), l.MaxPathDepth-1)
	}
	return ""
}

// invalidAt is the offset of text's first byte that is not UTF-8.
func invalidAt(text string) int {
	for i, r := range text {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(text[i:]); size <= 1 {
				return i
			}
		}
	}
	return -1
}

// checkCompile checks a compile request against the limits and the
// registry: the target, its ALU and options, the solver and mode, and
// counts that are neither negative nor huge.
func (l Limits) checkCompile(req *pb.CompileRequest, reg *backends.Registry) error {
	var v violations
	o := req.GetOptions()
	notText(&v, req)
	l.checkFiles(&v, req.GetFiles(), req.GetMain(), o.GetIncludeDirs(), o.GetDefines())
	b, err := reg.Lookup(req.GetTarget())
	if req.GetTarget() == "" {
		b, err = reg.Backends()[0], nil
	}
	if err != nil {
		v.add("target", "%v", err)
	}
	if b != nil {
		checkTargetOptions(&v, b, o)
	}
	if _, err := alloc.SolverNamed(o.GetSolver()); err != nil {
		v.add("options.solver", "%v", err)
	}
	if m := o.GetMode(); m != "" && m != "optimal" && m != "feasible" {
		v.add("options.mode", "%q: want optimal or feasible", m)
	}
	lim := o.GetLimits()
	for _, f := range []struct {
		name string
		n    int32
	}{{"stages", lim.GetStages()}, {"alus_per_stage", lim.GetAlusPerStage()}, {"tables_per_stage", lim.GetTablesPerStage()},
		{"entries_per_table", lim.GetEntriesPerTable()}} {
		if f.n < 0 || int(f.n) > l.MaxLimit {
			v.add("options.limits."+f.name, "%d: want 0 (the target's) to %d", f.n, l.MaxLimit)
		}
	}
	if n := o.GetVerifyPackets(); n < 0 || int(n) > l.MaxVerify {
		v.add("options.verify_packets", "%d: want 0 to %d", n, l.MaxVerify)
	}
	if t := o.GetTimeout(); t != nil && (t.CheckValid() != nil || t.AsDuration() <= 0) {
		v.add("options.timeout", "want a positive duration")
	}
	return v.err()
}

// checkTargetOptions checks the ALU and the target's own options.
func checkTargetOptions(v *violations, b backends.Backend, o *pb.CompileOptions) {
	if alu := o.GetAlu(); alu != "" {
		if names := backends.StatefulGrammars(b); !slices.Contains(names, alu) {
			v.add("options.alu", "target %s has no stateful ALU %q (it has: %s)", b.Target().Name, alu, strings.Join(names, ", "))
		}
	}
	if err := backends.Options(o.GetTargetOptions()).Check(b); err != nil {
		v.add("options.target_options", "%v", err)
	}
}

// checkCheck checks a check request.
func (l Limits) checkCheck(req *pb.CheckRequest) error {
	var v violations
	notText(&v, req)
	l.checkFiles(&v, req.GetFiles(), req.GetMain(), req.GetIncludeDirs(), req.GetDefines())
	return v.err()
}

// notText refuses the text fields that came over gRPC with invalid UTF-8
// (textCodec made them valid to decode the request, and named them).
func notText(v *violations, req proto.Message) {
	for _, name := range notUTF8(req) {
		v.add(name, "not UTF-8 text")
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

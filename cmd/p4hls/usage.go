package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Help and usage errors. Help that was asked for goes to stdout (so that
// `p4hls compile --help | less` works) and exits 0; a bad command line gets
// one line saying what is wrong and one saying where help is, on stderr,
// with exit status 2. Every command's help is written from its FlagSet, so
// it lists exactly the flags the command defines, spelled one way: --name
// for a word, -I for a letter (Go's flag package accepts both spellings).

// helpWidth is where help text wraps.
const helpWidth = 80

// operands says what a command takes after its flags.
type operands struct {
	synopsis string // as the usage line shows them: FILE.p4, FILE.p4..., PROGRAM.p4 TEST.stf
	min, max int    // how many; max < 0 for any number
	none     string // the reason when there are none but should be ("no input file"); optional
}

// check returns why got is not what o wants, or nil.
func (o operands) check(got []string) error {
	switch {
	case len(got) == 0 && o.min > 0 && o.none != "":
		return errors.New(o.none)
	case len(got) == 0 && o.min > 0:
		return fmt.Errorf("want %s, got none", o.want())
	case len(got) < o.min || o.max >= 0 && len(got) > o.max:
		return fmt.Errorf("want %s, got %d: %s", o.want(), len(got), strings.Join(got, " "))
	}
	return nil
}

func (o operands) want() string {
	switch {
	case o.max == 0:
		return "no arguments"
	case o.min == 0 && o.max == 1:
		return "at most one " + strings.Trim(o.synopsis, "[]")
	case o.min == 1 && o.max == 1:
		return "one " + o.synopsis
	}
	return o.synopsis
}

// flagSetHook is the context key of a func(*flag.FlagSet) that parseArgs
// calls with each command's flags: tests compare them with its help.
type flagSetHook struct{}

// parseArgs parses a command's flags and operands. Asked for help, it calls
// fs.Usage, which prints the command's help on stdout; given a bad command
// line, it prints the reason on stderr. When done is true the command
// returns code. It silences the flag package's own printing.
func parseArgs(ctx context.Context, fs *flag.FlagSet, args []string, want operands, stderr io.Writer) (ops []string, code int, done bool) {
	if see, ok := ctx.Value(flagSetHook{}).(func(*flag.FlagSet)); ok {
		see(fs)
	}
	help := fs.Usage
	fs.Usage = func() {} // the flag package calls it on every error
	fs.SetOutput(io.Discard)
	ops, err := parseInterspersed(fs, splitAttached(fs, args))
	fs.Usage = help
	if err == nil {
		err = want.check(ops)
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return nil, exitOK, true
	case err != nil:
		return nil, usageError(stderr, fs.Name(), "%s", respellFlags(err.Error())), true
	}
	return ops, exitOK, false
}

// splitAttached spells -DNAME=VALUE and -IDIR, written attached as cpp and
// p4c take them, as the flag package reads them: -D NAME=VALUE, -I DIR. It
// does so only for the one-letter flags fs defines, and stops at --.
func splitAttached(fs *flag.FlagSet, args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[2] != '=' && (a[1] == 'D' || a[1] == 'I') && fs.Lookup(a[1:2]) != nil {
			out = append(out, a[:2], a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// usageError reports a bad command line of command cmd ("" for p4hls
// itself) and returns the exit status for it.
func usageError(stderr io.Writer, cmd, format string, args ...any) int {
	name := strings.TrimSpace("p4hls " + cmd)
	fmt.Fprintf(stderr, "%s: %s\n", name, fmt.Sprintf(format, args...))
	fmt.Fprintf(stderr, "run '%s --help' for usage\n", name)
	return exitUsage
}

// flagInError finds a flag's name in the flag package's errors ("flag
// provided but not defined: -x", "invalid value "y" for flag -n: ...").
var flagInError = regexp.MustCompile(`(defined: |flag |for |argument: )-([^\s:=]+)`)

// respellFlags spells the flags an error of the flag package names as
// help spells them.
func respellFlags(msg string) string {
	return flagInError.ReplaceAllStringFunc(msg, func(m string) string {
		i := strings.LastIndex(m, " -")
		return m[:i+1] + flagName(strings.TrimLeft(m[i+1:], "-"))
	})
}

// flagName spells a flag as the command line takes it: -I, --target.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// printHelp prints the help of the command whose flags fs holds: a usage
// line with every flag and the operands (and any further usage lines,
// after the command's name), the command's summary, and each flag.
func printHelp(w io.Writer, fs *flag.FlagSet, want operands, more ...string) {
	prefix := "usage: p4hls " + fs.Name() + " "
	fmt.Fprintln(w, wrapWords(prefix, synopsis(fs, want.synopsis)))
	for _, line := range more {
		fmt.Fprintf(w, "%*sp4hls %s %s\n", len("usage: "), "", fs.Name(), line)
	}
	for _, c := range commands() {
		if c.name == fs.Name() {
			fmt.Fprintf(w, "\n%s.\n", sentence(c.summary))
		}
	}
	if hasFlags(fs) {
		fmt.Fprintln(w, "\nflags:")
		printFlags(w, fs)
	}
}

// synopsis returns the words of a usage line after the command's name: each
// flag in brackets, `...` after a repeatable one, then the operands.
func synopsis(fs *flag.FlagSet, operands string) []string {
	var words []string
	fs.VisitAll(func(f *flag.Flag) {
		word := "[" + flagName(f.Name)
		if placeholder, _ := flag.UnquoteUsage(f); placeholder != "" {
			word += " " + placeholder
		}
		word += "]"
		if _, repeatable := f.Value.(*listFlag); repeatable {
			word += "..."
		}
		words = append(words, word)
	})
	return append(words, strings.Fields(operands)...)
}

// printFlags prints each flag of fs: its name and value placeholder (the
// word in backquotes in its help), then its help and default, indented.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		placeholder, help := flag.UnquoteUsage(f)
		fmt.Fprintln(w, strings.TrimRight("  "+flagName(f.Name)+" "+placeholder, " "))
		if !isZeroDefault(f.DefValue) {
			help += fmt.Sprintf(" (default: %s)", f.DefValue)
		}
		fmt.Fprintln(w, wrapWords(strings.Repeat(" ", 8), strings.Fields(help)))
	})
}

// isZeroDefault reports whether a flag's default is its type's zero value,
// which help leaves unsaid (as Go's flag package does).
func isZeroDefault(v string) bool {
	switch v {
	case "", "0", "false", "0s":
		return true
	}
	return false
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// wrapWords joins words into lines of at most helpWidth columns (a longer
// word gets a line of its own), the first starting with prefix and the
// others indented as far.
func wrapWords(prefix string, words []string) string {
	var b strings.Builder
	b.WriteString(prefix)
	col, start := utf8.RuneCountInString(prefix), utf8.RuneCountInString(prefix)
	for _, word := range words {
		n := utf8.RuneCountInString(word)
		if col > start && col+1+n > helpWidth {
			b.WriteString("\n" + strings.Repeat(" ", start))
			col = start
		}
		if col > start {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
	}
	return strings.TrimRight(b.String(), " ")
}

// sentence turns a command's summary into a sentence.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

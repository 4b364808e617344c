package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/target"
)

// targetInfo is one target as `p4hls targets --json` writes it.
type targetInfo struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Default     bool              `json:"default"`
	Limits      target.Limits     `json:"limits"`
	ALUs        []aluInfo         `json:"alus"`
	Options     []backends.Option `json:"options"`
}

// aluInfo is one of a target's ALU grammars.
type aluInfo struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Default bool   `json:"default"`
}

// runTargets implements `p4hls targets`: the registry, as a table or as
// JSON.
func runTargets(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("targets", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "write the targets as JSON")
	want := operands{}
	fs.Usage = func() { printHelp(stdout, fs, want) }
	if _, code, done := parseArgs(ctx, fs, args, want, stderr); done {
		return code
	}
	infos := targetInfos(driver.Registry())
	if *asJSON {
		data, _ := json.MarshalIndent(infos, "", "  ")
		fmt.Fprintf(stdout, "%s\n", data)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "target\tstages\tALUs/stage\tstateful/stage\ttables/stage\tentries/table\tALUs (* default)\toptions")
	for _, t := range infos {
		name := t.Name
		if t.Default {
			name += " (default)"
		}
		l := t.Limits
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", name, l.Stages, l.ALUsPerStage, l.StatefulALUsPerStage,
			l.TablesPerStage, l.EntriesPerTable, aluList(t.ALUs), optionList(t.Options))
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	for _, t := range infos {
		fmt.Fprintf(stdout, "%s: %s\n", t.Name, t.Description)
		for _, o := range t.Options {
			fmt.Fprintf(stdout, "  --option %s=VALUE: %s (default: %s)\n", o.Name, o.Description, o.Default)
		}
	}
	return exitOK
}

func targetInfos(r *backends.Registry) []targetInfo {
	var out []targetInfo
	for i, b := range r.Backends() {
		tg := b.Target()
		info := targetInfo{Name: tg.Name, Description: tg.Description, Default: i == 0, Limits: tg.Limits, Options: b.Options()}
		if info.Options == nil {
			info.Options = []backends.Option{}
		}
		for _, g := range tg.Grammars {
			info.ALUs = append(info.ALUs, aluInfo{Name: g.Name, Kind: g.Kind.String(), Default: g.Name == tg.Stateful || g.Name == tg.Stateless})
		}
		out = append(out, info)
	}
	return out
}

// aluList writes a target's ALUs, its defaults marked.
func aluList(alus []aluInfo) string {
	var names []string
	for _, a := range alus {
		if a.Default {
			names = append(names, a.Name+"*")
		} else {
			names = append(names, a.Name)
		}
	}
	return strings.Join(names, " ")
}

func optionList(opts []backends.Option) string {
	if len(opts) == 0 {
		return "-"
	}
	var names []string
	for _, o := range opts {
		names = append(names, o.Name)
	}
	return strings.Join(names, " ")
}

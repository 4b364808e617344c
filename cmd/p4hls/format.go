package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/sarif"
)

// The forms check and compile print their results in (--format): text
// for people (diagnostics on stderr in GCC's form), json and sarif for
// CI (on stdout).
const (
	formatText  = "text"
	formatJSON  = "json"
	formatSARIF = "sarif"
)

const formatHelp = "print results as `FORMAT`: text (diagnostics on stderr as FILE:LINE:COL: error: MESSAGE), json or sarif (SARIF 2.1.0), on stdout"

// checkFormat refuses a format that is not one of the three.
func checkFormat(f string) error {
	switch f {
	case formatText, formatJSON, formatSARIF:
		return nil
	}
	return fmt.Errorf("--format %s: want text, json or sarif", f)
}

// checkJSON is what `check --format json` prints: the service's Check
// response, in report.json's names (docs/output.md).
type checkJSON struct {
	OK          bool                `json:"ok"`
	Diagnostics []report.Diagnostic `json:"diagnostics"`
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// printSARIF writes diagnostics as a SARIF log; text gives the files'
// text for the columns.
func printSARIF(w io.Writer, diags []report.Diagnostic, text func(string) []byte) error {
	return sarif.Write(w, sarif.Input{Version: compilerVersion(), Diagnostics: diags, Text: text})
}

// exitHelp is the exit statuses, which every command's help lists.
func exitHelp(w io.Writer, lines ...string) {
	fmt.Fprintln(w, "\nexit status:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", l)
	}
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/p4hls/p4hls/lsp"
)

// runLSP implements `p4hls lsp`: the editor server, speaking LSP on
// stdin and stdout, its log on stderr.
func runLSP(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	options := frontendFlags(fs)
	debounce := fs.Duration("debounce", lsp.DefaultDebounce, "check `D` after the last edit")
	want := operands{}
	fs.Usage = func() {
		printHelp(stdout, fs, want)
		fmt.Fprintln(stdout, "\nThe editor starts it and speaks the Language Server Protocol on its stdin and")
		fmt.Fprintln(stdout, "stdout; its log goes to stderr. Exit status: 0 after shutdown and exit, 1 after")
		fmt.Fprintln(stdout, "exit without shutdown or a broken stream, 2 for a bad command line.")
	}
	if _, code, done := parseArgs(ctx, fs, args, want, stderr); done {
		return code
	}
	opts := options()
	err := lsp.Serve(ctx, stdio{Reader: os.Stdin, Writer: stdout}, lsp.Options{
		Version: compilerVersion(), Logger: slog.New(slog.NewTextHandler(stderr, nil)), Debounce: *debounce,
		IncludeDirs: opts.IncludeDirs, Defines: opts.Defines})
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, lsp.ErrExitWithoutShutdown):
		return exitUserErr
	}
	fmt.Fprintf(stderr, "p4hls lsp: %v\n", err)
	return exitUserErr
}

// stdio is the editor's end: the process's stdin and stdout.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes stdin, which ends a read waiting on it.
func (s stdio) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

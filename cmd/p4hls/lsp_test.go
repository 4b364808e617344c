package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNeovim runs a real editor's client against `p4hls lsp`: Neovim,
// headless, with its built-in LSP client (testdata/nvim_lsp.lua) opens
// the editor server's test program with "port" misspelled "prot" on line
// 29, and asks hover and definition. The positions are counted by hand:
// "prot" is at line 29, columns 27-30 (0-based in LSP: line 28, 26-30);
// ttl on line 30 is a bit<8> field of ipv4_t; hdr.ipv4 is declared on
// line 18, column 16, of headers.p4. Neovim must be installed
// (scripts/setup.sh does it): without it the test fails.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("nvim is not installed (scripts/setup.sh installs Debian's neovim)")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	prog, err := os.ReadFile(filepath.Join("..", "..", "lsp", "testdata", "prog.p4"))
	if err != nil {
		t.Fatal(err)
	}
	headers, err := os.ReadFile(filepath.Join("..", "..", "lsp", "testdata", "headers.p4"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "prog.p4")
	bad := strings.Replace(string(prog), "egress_spec = port;", "egress_spec = prot;", 1)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "headers.p4"), headers, 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "nvim_lsp.lua"))
	if err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(dir, "transcript.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", "NONE", "-i", "NONE", "-c", "luafile "+script)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "P4HLS_BIN="+bin, "P4_FILE="+file, "OUT="+transcript,
		"HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	data, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatalf("nvim wrote no transcript: %v", err)
	}
	got := string(data)
	t.Logf("Neovim's transcript:\n%s", got)
	for _, want := range []string{
		"diagnostics received: true",
		"diagnostic line 28 col 26 end 28:30 severity 1 UndeclaredName: undeclared name prot",
		"hover: bit<8> ttl; // a field of header ipv4_t",
		"hover: type `bit<8>`",
		"definition: headers.p4 line 17 col 15",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
}

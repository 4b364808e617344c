package cpp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/p4hls/p4hls/diag"
)

// TestReadRegular: a regular file within the limit is read; a device, a
// FIFO, a folder and a file over the limit are refused at once, without
// reading (a FIFO with no writer would block an ordinary open).
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.p4")
	if err := os.WriteFile(small, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.p4")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadRegular(small, 5); err != nil || string(data) != "12345" {
		t.Errorf("small: %q, %v", data, err)
	}
	for _, c := range []struct {
		name  string
		limit int64
		want  error
	}{
		{small, 4, ErrTooLarge},
		{"/dev/zero", 1 << 20, ErrNotRegular},
		{fifo, 1 << 20, ErrNotRegular},
		{dir, 1 << 20, ErrNotRegular},
		{filepath.Join(dir, "none.p4"), 1 << 20, os.ErrNotExist},
	} {
		if _, err := ReadRegular(c.name, c.limit); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestIncludeUnreadable: an #include of a file that exists but is no
// source says why, at the directive, instead of "cannot find".
func TestIncludeUnreadable(t *testing.T) {
	var d diag.List
	if _, err := Preprocess(context.Background(), "x.p4", []byte("#include \"/dev/zero\"\n"), Options{}, &d); err != nil {
		t.Fatal(err)
	}
	if got := d.String(); !strings.Contains(got, `x.p4:1:1: error: cannot read include file "/dev/zero": not a regular file`) {
		t.Errorf("got %q", got)
	}
}

// TestExpansionGrowth: a macro that doubles its argument, nested 22 deep,
// makes 2^22 tokens from 22 replacements; the preprocessor stops at its
// token bound and names the macro.
func TestExpansionGrowth(t *testing.T) {
	src := "#define D(x) x x\n" + strings.Repeat("D(", 22) + "a" + strings.Repeat(")", 22) + "\n"
	var d diag.List
	if _, err := Preprocess(context.Background(), "x.p4", []byte(src), Options{}, &d); err != nil {
		t.Fatal(err)
	}
	if got := d.String(); !strings.Contains(got, "x.p4:2:1: error: the expansion of macro D grows past 1000000 tokens") {
		t.Errorf("got %q", got)
	}
}

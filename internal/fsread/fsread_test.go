package fsread

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
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

// TestNoFollow: a symbolic link to a good file is refused, not followed.
func TestNoFollow(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRegularNoFollow(link, 10); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("a link: %v, want ELOOP", err)
	}
	if data, err := ReadRegularNoFollow(target, 10); err != nil || string(data) != "x" {
		t.Errorf("a file: %q, %v", data, err)
	}
}

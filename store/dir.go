package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/p4hls/p4hls/internal/fsread"
)

// MaxValueBytes bounds a value read from a folder (a compile's result
// with its artifacts is well under it).
const MaxValueBytes = 64 << 20

// Dir is a store in a folder, one file per key, so a cache survives a
// restart. A value is written to a temporary file and renamed, so a
// reader never sees half of one.
type Dir struct {
	dir string
}

// NewDir makes (if need be) and opens the folder.
func NewDir(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Dir{dir: dir}, nil
}

// path spreads keys over folders by their first two hash characters.
// Keys are the service's own (a prefix and a hex hash), but a key with a
// path separator or "..", which no caller makes, is refused rather than
// trusted.
func (d *Dir) path(key string) (string, error) {
	kind, hash, ok := strings.Cut(key, "/")
	if !ok || len(hash) < 3 || strings.ContainsAny(hash, `/\.`) || strings.ContainsAny(kind, `/\.`) {
		return "", fmt.Errorf("store: bad key %q", key)
	}
	return filepath.Join(d.dir, kind, hash[:2], hash), nil
}

func (d *Dir) Get(_ context.Context, key string) ([]byte, bool, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, false, err
	}
	// The folder may be shared: a value is read only from a regular file,
	// not through a link, and never past MaxValueBytes.
	data, err := fsread.ReadRegularNoFollow(p, MaxValueBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

func (d *Dir) Put(_ context.Context, key string, value []byte) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(value)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644) // readable by a group sharing the folder
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("store: writing %s: %w", key, err)
	}
	return nil
}

func (d *Dir) Name() string { return "dir " + d.dir }
func (d *Dir) Close() error { return nil }

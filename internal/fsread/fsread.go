// Package fsread reads files that come from outside the program's
// control (sources, includes, cache entries) without trusting them: only
// regular files, never past a size bound, optionally not through a
// symbolic link.
package fsread

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrNotRegular is a source that is not a regular file (a device, a
// FIFO, a socket, a folder).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is a source file over the size limit.
var ErrTooLarge = errors.New("file too large")

// ReadRegular reads a source file that is a regular file of at most limit
// bytes. Anything else is refused before it is read: /dev/zero never
// ends, a FIFO waits for a writer (so it is opened without blocking and
// checked once open), and a file may grow between the check of its size
// and the read, which stops one byte past the limit.
func ReadRegular(name string, limit int64) ([]byte, error) {
	return read(name, limit, 0)
}

// ReadRegularNoFollow is ReadRegular for a file that must not be a
// symbolic link (an entry of a cache folder others may write): a link is
// refused, not followed.
func ReadRegularNoFollow(name string, limit int64) ([]byte, error) {
	return read(name, limit, syscall.O_NOFOLLOW)
}

func read(name string, limit int64, flags int) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|flags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	if st.Size() > limit {
		return nil, &os.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, st.Size(), limit)}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &os.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: over %d bytes", ErrTooLarge, limit)}
	}
	return data, nil
}

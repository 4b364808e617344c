package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/p4hls/p4hls/driver"
)

// reportFile is the report's name in a compile's output folder.
const reportFile = "report.json"

// writeOutput replaces what a compile owns in dir with what this one
// produced: it removes the report of the last compile into dir and the
// files that report lists (so no stale result can be read as new), then
// writes the artifacts, and the report last, each through a temporary
// file renamed into place, so a report in dir always describes the files
// beside it.
func writeOutput(dir string, res *driver.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := removeLast(dir); err != nil {
		return err
	}
	for _, a := range res.Artifacts {
		if !plainName(a.Name) || a.Name == reportFile {
			return fmt.Errorf("internal error: artifact %q is not a plain file name", a.Name)
		}
		if err := writeFileAtomic(dir, a.Name, a.Data); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(res.Report, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(dir, reportFile, append(data, '\n'))
}

// removeLast removes the report in dir and the artifacts it lists.
func removeLast(dir string) error {
	path := filepath.Join(dir, reportFile)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var last struct {
		Artifacts []struct{ Name string }
	}
	// A report this compiler cannot read lists nothing to remove; it is
	// replaced all the same.
	_ = json.Unmarshal(data, &last)
	if err := os.Remove(path); err != nil {
		return err
	}
	for _, a := range last.Artifacts {
		if !plainName(a.Name) || a.Name == reportFile {
			continue // not a file this compiler writes
		}
		if err := os.Remove(filepath.Join(dir, a.Name)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// writeFileAtomic writes data to dir/name through a temporary file in
// dir, renamed into place once complete.
func writeFileAtomic(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// plainName reports whether name names a file in its folder, not a path.
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && filepath.Base(name) == name
}

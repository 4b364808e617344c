package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/stagemap"
)

// stageMapInput is what the stage map shows of a compile.
func stageMapInput(file string, res *driver.Result) stagemap.Input {
	return stagemap.Input{File: file, Report: res.Report, Target: res.Target, Placement: res.Placement, Graphs: res.Graphs, Source: res.Source}
}

// reportFile is the report's name in a compile's output folder.
const reportFile = "report.json"

// writeOutput replaces what a compile owns in dir with what this one
// produced: it removes the report of the last compile into dir and the
// files that report lists (so no stale result can be read as new), then
// writes the artifacts, the stage map page when there is one (as
// report.html, listed in the report as an artifact, so the next compile
// removes it too), and the report last, each through a temporary file renamed into place, so a
// report in dir always describes the files beside it.
func writeOutput(dir string, res *driver.Result, page []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := removeLast(dir); err != nil {
		return err
	}
	artifacts, rep := res.Artifacts, res.Report
	if page != nil {
		artifacts = append(artifacts[:len(artifacts):len(artifacts)], backends.Artifact{Name: stagemap.FileName, MediaType: stagemap.MediaType, Data: page})
		rep.Artifacts = append(rep.Artifacts[:len(rep.Artifacts):len(rep.Artifacts)], report.NewArtifact(stagemap.FileName, stagemap.MediaType, page))
	}
	for _, a := range artifacts {
		if !plainName(a.Name) || a.Name == reportFile {
			return fmt.Errorf("internal error: artifact %q is not a plain file name", a.Name)
		}
		if err := writeFileAtomic(dir, a.Name, a.Data); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(rep, "", "  ")
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

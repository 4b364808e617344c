package kernel

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// Open loads what a compile wrote into dir: maps.json, the program it
// names (which must not have changed since), and prog.o.
func Open(ctx context.Context, dir string) (*Machine, error) {
	js, err := os.ReadFile(filepath.Join(dir, LayoutFile))
	if err != nil {
		return nil, fmt.Errorf("%w (compile with --target xdp -o %s first)", err, dir)
	}
	var layout Layout
	if err := json.Unmarshal(js, &layout); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, LayoutFile), err)
	}
	src, err := os.ReadFile(layout.Source)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(src); hex.EncodeToString(sum[:]) != layout.SHA256 {
		return nil, fmt.Errorf("%s changed since %s was compiled; compile it again", layout.Source, dir)
	}
	var d diag.List
	prog, _, err := frontend.Load(ctx, layout.Source, src, frontend.Options{IncludeDirs: layout.IncludeDirs, Defines: layout.Defines}, &d)
	if err != nil || prog == nil {
		return nil, fmt.Errorf("loading %s: %v %v", layout.Source, err, d.Err())
	}
	obj, err := os.ReadFile(filepath.Join(dir, ObjectFile))
	if err != nil {
		return nil, err
	}
	return Load(obj, layout, prog)
}

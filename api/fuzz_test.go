package api

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// FuzzRequestDecoding decodes arbitrary bytes as a compile request, in
// the binary form and as JSON, and validates it: nothing panics, and a
// request that passes validation has what the service relies on (clean
// relative paths, a main among them, UTF-8 text, counts in range) and a
// cache key that does not depend on how its maps were ordered.
func FuzzRequestDecoding(f *testing.F) {
	seed := &pb.CompileRequest{Files: map[string]string{"main.p4": "#include \"lib/a.p4\"\n", "lib/a.p4": "const bit<8> A = 1;\n"},
		Main: "main.p4", Target: "banzai", Options: &pb.CompileOptions{Alu: "pred_raw", Limits: &pb.Limits{Stages: 3}, Defines: map[string]string{"N": "4"}}}
	data, _ := proto.Marshal(seed)
	f.Add(data)
	js, _ := protojson.Marshal(seed)
	f.Add(js)
	f.Add([]byte(`{"files":{"../x":"y"},"main":"../x"}`))
	f.Add([]byte(`{"files":{"/etc/passwd":""},"main":"/etc/passwd","options":{"limits":{"stages":-1}}}`))
	reg := driver.Registry()
	limits := DefaultLimits()
	svc := NewService(Config{Registry: reg})
	f.Fuzz(func(t *testing.T, data []byte) {
		textDecode := func(data []byte, m proto.Message) error { return textCodec{}.Unmarshal(data, m) }
		for _, decode := range []func([]byte, proto.Message) error{proto.Unmarshal, protojson.Unmarshal, textDecode} {
			var req pb.CompileRequest
			if decode(data, &req) != nil {
				continue
			}
			if limits.checkCompile(&req, reg) != nil {
				continue
			}
			if _, ok := req.Files[req.Main]; !ok {
				t.Fatalf("valid with main %q not among the files", req.Main)
			}
			for name := range req.Files {
				if filepath.IsAbs(name) || strings.Contains("/"+name+"/", "/../") || filepath.ToSlash(filepath.Clean(name)) != name {
					t.Fatalf("valid with path %q", name)
				}
			}
			key := ResultKey(svc.normalize(&req), "v")
			again, _ := proto.Marshal(&req)
			var copy pb.CompileRequest
			proto.Unmarshal(again, &copy)
			if key == "" || ResultKey(svc.normalize(&copy), "v") != key {
				t.Fatalf("the cache key changed through a round trip")
			}
		}
	})
}

// FuzzIncludeResolution preprocesses a request's files with an include
// of any name: whatever it names, the files read are the request's
// (with their text) or the bundled ones, never the file on this disk
// whose text is "DISK".
func FuzzIncludeResolution(f *testing.F) {
	onDisk := filepath.Join(f.TempDir(), "disk.p4")
	if err := os.WriteFile(onDisk, []byte("DISK\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{onDisk, "../" + onDisk, "lib/a.p4", "a.p4", "../lib/a.p4", "core.p4", "./lib/../lib/a.p4", "lib//a.p4", "/proc/self/environ"} {
		f.Add("main.p4", seed, false)
		f.Add("dir/main.p4", seed, true)
	}
	f.Fuzz(func(t *testing.T, main, include string, angle bool) {
		if (Limits{MaxPathBytes: 512, MaxPathDepth: 16}).badPath(main) != "" || strings.ContainsAny(include, "\n\r\"<>") {
			return
		}
		directive := `#include "` + include + `"`
		if angle {
			directive = "#include <" + include + ">"
		}
		files := map[string][]byte{main: []byte(directive + "\n"), "lib/a.p4": []byte("const bit<8> A = 1;\n")}
		var d diag.List
		_, source, err := frontend.Parse(context.Background(), main, files[main], frontend.Options{Files: files, IncludeDirs: []string{"."}}, &d)
		if err != nil || source == nil || source.Result == nil {
			return
		}
		for name, text := range source.Sources {
			if bytes.Contains(text, []byte("DISK")) {
				t.Fatalf("%s read %s from the disk", directive, name)
			}
			key := filepath.ToSlash(filepath.Clean(name))
			if want, ok := files[key]; !strings.HasPrefix(name, "<") && (!ok || !bytes.Equal(want, text)) {
				t.Fatalf("%s read %q, not a file of the request", directive, name)
			}
		}
	})
}

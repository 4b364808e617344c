package api

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// rawCodec sends bytes as they are, so a test can put on the wire what
// protobuf-go would refuse to encode.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) ([]byte, error) { return v.([]byte), nil }

func (rawCodec) Unmarshal(data []byte, v any) error {
	return proto.Unmarshal(data, v.(proto.Message))
}

// TestNotUTF8OverGRPC: text fields with invalid UTF-8 sent over gRPC are
// refused with InvalidArgument naming each field (a file's text, a path,
// a define's value), not Internal.
func TestNotUTF8OverGRPC(t *testing.T) {
	s := startServer(t, Config{})
	// Encode valid placeholders, then overwrite them with invalid bytes of
	// the same length, so every length prefix stays right.
	req := &pb.CheckRequest{Main: "main.p4", Files: map[string]string{"main.p4": "const bit<8> X = 1; // TEXT1\n", "PATH2.p4": "x"},
		Defines: map[string]string{"M": "VALUE3"}}
	data, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, placeholder := range []string{"TEXT1", "PATH2", "VALUE3"} {
		if !bytes.Contains(data, []byte(placeholder)) {
			t.Fatalf("%s is not in the encoded request", placeholder)
		}
		data = bytes.Replace(data, []byte(placeholder), bytes.Repeat([]byte{0xff}, len(placeholder)), 1)
	}
	var resp pb.CheckResponse
	err = s.conn.Invoke(context.Background(), "/p4hls.v1.Compiler/Check", data, &resp, grpc.ForceCodec(rawCodec{}))
	msg := status.Convert(err).Message()
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("got %v, want InvalidArgument", err)
	}
	for _, field := range []string{`files["main.p4"]: not UTF-8 text`, `files[] (a key): not UTF-8 text`, `defines["M"]: not UTF-8 text`} {
		if !strings.Contains(msg, field) {
			t.Errorf("the error does not name %s:\n%s", field, msg)
		}
	}
}

// TestTextCodecRoundTrip: a valid request decodes as protobuf-go decodes
// it, with no field named.
func TestTextCodecRoundTrip(t *testing.T) {
	req := &pb.CheckRequest{Main: "main.p4", Files: map[string]string{"main.p4": "é"}}
	data, err := textCodec{}.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var got pb.CheckRequest
	if err := (textCodec{}).Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(&got, req) || len(notUTF8(&got)) != 0 {
		t.Errorf("got %v, named %v", &got, notUTF8(&got))
	}
}

package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"google.golang.org/protobuf/proto"

	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// ResultKey names a compile by what it is made of: the files, the
// target, the options (all but the time limit, which does not change a
// result that arrives within it) and the compiler's version. req is
// normalized (Service.normalize), so that an option left at its default
// and one spelled out have one key. A request that cannot be encoded
// (which validation rules out) has no key, "": it is not cached.
func ResultKey(req *pb.CompileRequest, version string) string {
	n := proto.Clone(req).(*pb.CompileRequest)
	if n.Options != nil {
		n.Options.Timeout = nil
	}
	// Deterministic marshaling writes map entries in key order.
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(n)
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "p4hls result v1\nversion %d %s\n", len(version), version)
	h.Write(data)
	return "result/" + hex.EncodeToString(h.Sum(nil))
}

// cached is the response kept for key, or nil. A store that fails or
// holds a damaged value is a miss: the compile runs.
func (s *Service) cached(ctx context.Context, key string) *pb.CompileResponse {
	if key == "" {
		return nil
	}
	data, ok, err := s.cfg.Results.Get(ctx, key)
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "result cache", "error", err)
	}
	var resp pb.CompileResponse
	if ok && err == nil && proto.Unmarshal(data, &resp) == nil {
		s.cfg.Metrics.cacheLookup(true)
		resp.Cached = true
		return &resp
	}
	s.cfg.Metrics.cacheLookup(false)
	return nil
}

// keep stores a response for the next identical request.
func (s *Service) keep(ctx context.Context, key string, resp *pb.CompileResponse) {
	if key == "" {
		return
	}
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(resp)
	if err == nil {
		err = s.cfg.Results.Put(context.WithoutCancel(ctx), key, data)
	}
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "result cache", "error", err)
	}
}

package api

import (
	"context"
	"net/http"
	"regexp"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/stagemap"
)

// The stage map of a compile (stagemap, report.html) is kept beside its
// result, by the same key, and served at GET /v1/reports/{id}; a compile's
// response tells the id in its header metadata, which grpc-gateway sends
// as the HTTP header Grpc-Metadata-P4hls-Report-Id.

// ReportHeader is the header metadata naming a compile's report.
const ReportHeader = "p4hls-report-id"

// reportID is the id of the report of the result kept under key ("" for
// none).
func reportID(key string) string { return strings.TrimPrefix(key, "result/") }

func reportKey(id string) string { return "report/" + id }

// keepReport renders a compile's stage map and keeps it.
func (s *Service) keepReport(ctx context.Context, key, main string, res *driver.Result) {
	page, err := stagemap.Render(stagemap.Input{File: main, Report: res.Report, Target: res.Target,
		Placement: res.Placement, Graphs: res.Graphs, Source: res.Source})
	if err == nil {
		err = s.cfg.Results.Put(context.WithoutCancel(ctx), reportKey(reportID(key)), page)
	}
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "report", "error", err)
	}
}

// tellReport sends the report's id in the response's header metadata.
func tellReport(ctx context.Context, key string) {
	if key != "" {
		// A header that cannot be sent (a stream already sending) only
		// loses the hint; the result is unchanged.
		_ = grpc.SetHeader(ctx, metadata.Pairs(ReportHeader, reportID(key)))
	}
}

var reportIDForm = regexp.MustCompile(`^[0-9a-f]{64}$`)

// report serves GET /v1/reports/{id}: the page, or 404 when the id names
// no report kept (never made, or evicted from the cache).
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !reportIDForm.MatchString(id) {
		http.Error(w, "a report id is 64 hexadecimal digits", http.StatusBadRequest)
		return
	}
	page, ok, err := s.svc.cfg.Results.Get(r.Context(), reportKey(id))
	switch {
	case err != nil:
		s.log.WarnContext(r.Context(), "report", "error", err)
		http.Error(w, "the report store failed", http.StatusInternalServerError)
	case !ok:
		http.Error(w, "no such report (the cache may have dropped it: compile again)", http.StatusNotFound)
	default:
		w.Header().Set("Content-Type", stagemap.MediaType)
		w.Write(page)
	}
}

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/p4hls/p4hls/check"
	"github.com/p4hls/p4hls/diag"
)

// document is an open document: its text as the editor has it, and its
// checks.
type document struct {
	uri, path string
	version   int
	text      string
	// pending is the check of the latest version, until it is done.
	pending *pending
	// last is the latest check that finished; parsed the latest whose
	// program parsed (completion reads it while the text does not parse).
	last, parsed *analysis
}

// pending is a check that has not finished: cancel stops it (a newer
// edit), done closes when it ends either way.
type pending struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// analysis is a finished check of one version of a document.
type analysis struct {
	version int
	res     *check.Result
	ix      *index
}

// resolved says whether the check resolved names (the program parsed).
func (a *analysis) resolved() bool {
	return a != nil && a.ix.checked != nil && a.ix.checked.Globals != nil
}

func (s *server) didOpen(_ context.Context, params json.RawMessage) (any, error) {
	var p didOpenParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, err := pathOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	doc := &document{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, text: p.TextDocument.Text}
	if old := s.docs[path]; old != nil && old.pending != nil {
		old.pending.cancel()
	}
	s.docs[path] = doc
	s.schedule(doc)
	return nil, nil
}

func (s *server) didChange(_ context.Context, params json.RawMessage) (any, error) {
	var p didChangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, err := pathOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	doc := s.docs[path]
	if doc == nil {
		return nil, fmt.Errorf("didChange of %s, which is not open", p.TextDocument.URI)
	}
	for _, c := range p.ContentChanges {
		doc.text = s.enc.apply(doc.text, c)
	}
	doc.version = p.TextDocument.Version
	s.schedule(doc)
	// The documents that include this one see the edit too.
	for _, other := range s.docs {
		if other != doc && s.includes(other.path, path) {
			s.schedule(other)
		}
	}
	return nil, nil
}

func (s *server) didClose(_ context.Context, params json.RawMessage) (any, error) {
	var p didCloseParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, err := pathOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	doc := s.docs[path]
	if doc != nil && doc.pending != nil {
		doc.pending.cancel()
	}
	delete(s.docs, path)
	s.mu.Unlock()
	// Its diagnostics go with it.
	s.publish.Lock()
	defer s.publish.Unlock()
	s.publishAll(s.ctx, path, nil)
	return nil, nil
}

// apply makes one edit to text.
func (enc encoding) apply(text string, c contentChange) string {
	if c.Range == nil {
		return c.Text
	}
	start, end := enc.offset(text, c.Range.Start), enc.offset(text, c.Range.End)
	if end < start {
		start, end = end, start
	}
	return text[:start] + c.Text + text[end:]
}

// includes says whether the last check of the document at main read the
// file at path.
func (s *server) includes(main, path string) bool {
	byFile, ok := s.published[main]
	if !ok {
		return false
	}
	_, ok = byFile[path]
	if d := s.docs[main]; d != nil && d.last != nil && d.last.res.Source != nil {
		_, read := d.last.res.Source.Sources[path]
		ok = ok || read
	}
	return ok
}

// schedule starts the check of doc's current version after the
// debounce, cancelling the check of the version before. s.mu is held.
func (s *server) schedule(doc *document) {
	if doc.pending != nil {
		doc.pending.cancel()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	p := &pending{cancel: cancel, done: make(chan struct{})}
	doc.pending = p
	version, text := doc.version, doc.text
	s.checks.Add(1)
	go func() {
		defer s.checks.Done()
		defer close(p.done)
		defer cancel()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("internal error in a check", "file", doc.path, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			}
		}()
		t := time.NewTimer(s.opts.Debounce)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
		s.run(ctx, doc, version, text)
	}()
}

// run checks one version of a document and publishes its diagnostics,
// unless a newer version came meanwhile.
func (s *server) run(ctx context.Context, doc *document, version int, text string) {
	res, err := check.Run(ctx, s.request(doc.path, text))
	if err != nil {
		return // cancelled: a newer edit, or the end of the connection
	}
	a := &analysis{version: version, res: res, ix: newIndex(res.Program)}
	s.publish.Lock()
	defer s.publish.Unlock()
	s.mu.Lock()
	if ctx.Err() != nil || s.docs[doc.path] != doc {
		s.mu.Unlock()
		return
	}
	doc.last = a
	if a.resolved() {
		doc.parsed = a
	}
	enc := s.enc
	s.mu.Unlock()
	s.publishAll(ctx, doc.path, s.diagnostics(enc, doc.path, res))
}

// diagnostics are a check's diagnostics as LSP's, by file; the main
// file is always there, so a clean check clears what was shown.
func (s *server) diagnostics(enc encoding, main string, res *check.Result) map[string][]Diagnostic {
	out := map[string][]Diagnostic{main: {}}
	for _, d := range res.Diagnostics.Items() {
		file := d.Span.File
		out[file] = append(out[file], lspDiagnostic(enc, res.Text, d))
	}
	return out
}

// lspDiagnostic converts a diagnostic, with its code, its description
// and its related places.
func lspDiagnostic(enc encoding, text func(string) []byte, d diag.Diagnostic) Diagnostic {
	out := Diagnostic{Range: enc.span(text(d.Span.File), d.Span), Severity: severity(d.Severity),
		Code: d.Code.String(), Source: "p4hls", Message: d.Msg}
	for _, r := range d.Related {
		uri := uriOf(r.Span.File)
		if uri == "" {
			continue
		}
		out.RelatedInformation = append(out.RelatedInformation, diagnosticRelatedInformation{
			Location: Location{URI: uri, Range: enc.span(text(r.Span.File), r.Span)}, Message: r.Msg})
	}
	return out
}

func severity(s diag.Severity) int {
	switch s {
	case diag.Error:
		return 1
	case diag.Warning:
		return 2
	}
	return 3
}

// publishAll records what the check of main found in each file and
// sends every file whose diagnostics that changes: the files it found
// something in now or before. A file's diagnostics are those every open
// document's check found in it. s.publish is held (or the document is
// closing).
func (s *server) publishAll(ctx context.Context, main string, found map[string][]Diagnostic) {
	s.mu.Lock()
	files := map[string]bool{}
	for f := range s.published[main] {
		files[f] = true
	}
	for f := range found {
		files[f] = true
	}
	if found == nil {
		delete(s.published, main)
	} else {
		s.published[main] = found
	}
	var out []PublishDiagnosticsParams
	for f := range files {
		if uri := uriOf(f); uri != "" {
			out = append(out, PublishDiagnosticsParams{URI: uri, Diagnostics: s.collect(f)})
		}
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	for _, p := range out {
		if err := s.conn.Notify(s.ctx, "textDocument/publishDiagnostics", p); err != nil {
			s.log.Warn("publishing diagnostics", "uri", p.URI, "error", err)
		}
	}
}

// collect gathers a file's diagnostics from every document's check,
// each once (a header two open programs include). s.mu is held.
func (s *server) collect(file string) []Diagnostic {
	out := []Diagnostic{}
	seen := map[string]bool{}
	var mains []string
	for m := range s.published {
		mains = append(mains, m)
	}
	sort.Strings(mains)
	for _, m := range mains {
		for _, d := range s.published[m][file] {
			key := fmt.Sprint(d.Range, d.Code, d.Message)
			if !seen[key] {
				seen[key] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// latest waits for the check of the document's current version and
// returns the document and the check to answer from: the latest, or
// when it did not parse, the latest that did. A request for a document
// that is not open is answered with nothing.
func (s *server) latest(ctx context.Context, uri string) (*document, *analysis, error) {
	path, err := pathOf(uri)
	if err != nil {
		return nil, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	s.mu.Lock()
	doc := s.docs[path]
	var p *pending
	if doc != nil {
		p = doc.pending
	}
	s.mu.Unlock()
	if doc == nil {
		return nil, nil, nil
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a := doc.last
	if !a.resolved() {
		a = doc.parsed
	}
	return doc, a, nil
}

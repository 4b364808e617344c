package lsp

import (
	"context"
	"encoding/json"

	"github.com/p4hls/p4hls/diag"
)

// The editor's questions about a place in a document, answered from the
// check of its current version (or of the last version that parsed).

// at finds the document, its check and the name at a position.
func (s *server) at(ctx context.Context, p textDocumentPositionParams) (*document, *analysis, *ref, error) {
	doc, a, err := s.latest(ctx, p.TextDocument.URI)
	if err != nil || a == nil {
		return nil, nil, nil, err
	}
	s.mu.Lock()
	pos := s.enc.pos([]byte(doc.text), p.Position)
	s.mu.Unlock()
	return doc, a, a.ix.at(doc.path, pos), nil
}

func (s *server) hover(ctx context.Context, params json.RawMessage) (any, error) {
	var p textDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	doc, a, r, err := s.at(ctx, p)
	if err != nil || r == nil {
		return nil, err
	}
	text := a.ix.hoverText(a.res.Text, r)
	if text == "" {
		return nil, nil
	}
	rng := s.encoding().span([]byte(doc.text), r.span)
	return Hover{Contents: markupContent{Kind: "markdown", Value: text}, Range: &rng}, nil
}

func (s *server) definition(ctx context.Context, params json.RawMessage) (any, error) {
	var p textDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	_, a, r, err := s.at(ctx, p)
	if err != nil || r == nil || r.target == nil {
		return nil, err
	}
	loc, ok := s.location(a, nameSpan(r.target))
	if !ok {
		return nil, nil // in a bundled header, which is no file
	}
	return []Location{loc}, nil
}

func (s *server) references(ctx context.Context, params json.RawMessage) (any, error) {
	var p referenceParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	_, a, r, err := s.at(ctx, p.textDocumentPositionParams)
	if err != nil || r == nil || r.target == nil {
		return nil, err
	}
	out := []Location{}
	for _, use := range a.ix.refsTo(r.target, p.Context.IncludeDeclaration) {
		if loc, ok := s.location(a, use.span); ok {
			out = append(out, loc)
		}
	}
	return out, nil
}

// location is a span as a location, in the text the check read (an open
// document's, or the file's).
func (s *server) location(a *analysis, sp diag.Span) (Location, bool) {
	uri := uriOf(sp.File)
	if uri == "" {
		return Location{}, false
	}
	return Location{URI: uri, Range: s.encoding().span(a.res.Text(sp.File), sp)}, true
}

func (s *server) documentSymbol(ctx context.Context, params json.RawMessage) (any, error) {
	var p documentSymbolParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	doc, a, err := s.latest(ctx, p.TextDocument.URI)
	if err != nil || a == nil {
		if doc != nil && err == nil {
			return []DocumentSymbol{}, nil
		}
		return nil, err
	}
	return a.ix.symbols(s.encoding(), a.res.Text(doc.path), doc.path), nil
}

func (s *server) completion(ctx context.Context, params json.RawMessage) (any, error) {
	var p textDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	doc, a, err := s.latest(ctx, p.TextDocument.URI)
	if err != nil || a == nil {
		return nil, err
	}
	s.mu.Lock()
	text := []byte(doc.text)
	pos := s.enc.pos(text, p.Position)
	s.mu.Unlock()
	line := lineOf(text, pos.Line)
	before := line[:min(pos.Col-1, len(line))]
	return completionList{Items: a.ix.complete(doc.path, pos, before)}, nil
}

func (s *server) encoding() encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc
}

// Package lsp is p4hls's editor server (`p4hls lsp`): the Language Server
// Protocol (3.17) over a stream. It checks each open document as the
// service's Check and `p4hls check` do (package check), publishes the
// diagnostics of the document and of the files it includes, and answers
// hover, go to definition, find references, document symbols and
// completion from what the checker learned.
//
// JSON-RPC and its framing are go.lsp.dev/jsonrpc2, maintained and with a
// single dependency; the protocol's types are the few this server uses
// (protocol.go). A handler's panic is a p4hls bug: it becomes an error
// response, logged, and the server goes on.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/p4hls/p4hls/check"
	"github.com/p4hls/p4hls/frontend"
)

// DefaultDebounce is how long the server waits after an edit before it
// checks: an editor sends an edit per keystroke, and a check per
// keystroke would lag behind the typing.
const DefaultDebounce = 25 * time.Millisecond

// Options configure a server. The zero Options work.
type Options struct {
	// Version is p4hls's version, given to the editor.
	Version string
	// Logger receives the server's log (nil: none); never the protocol's
	// stream.
	Logger *slog.Logger
	// Debounce is how long after an edit the check starts (0:
	// DefaultDebounce); a newer edit restarts the wait and cancels a
	// check already running.
	Debounce time.Duration
	// IncludeDirs and Defines are -I and -D for every check; the
	// editor's initializationOptions add to them.
	IncludeDirs []string
	Defines     map[string]string
}

// ErrExitWithoutShutdown is Serve's error when the client sent exit
// without shutdown first (LSP: the server then exits with status 1).
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Serve speaks LSP over rwc until the client says exit, the stream ends,
// or ctx ends; it closes rwc.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	return serve(ctx, rwc, opts, nil)
}

// serve is Serve with methods added to the table (tests add one that
// panics).
func serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options, extra map[string]handler) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newServer(ctx, opts)
	for name, h := range extra {
		s.routes[name] = h
	}
	s.conn = jsonrpc2.NewConn(&tolerant{Stream: jsonrpc2.NewHeaderStream(rwc), log: s.log})
	s.conn.Go(ctx, s.handle)
	select {
	case <-s.conn.Done():
	case <-s.exit:
	case <-ctx.Done():
	}
	cancel() // the checks in flight stop
	s.checks.Wait()
	closeErr := s.conn.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.exited && !s.shutdown:
		return ErrExitWithoutShutdown
	case s.exited:
		return nil
	}
	return errors.Join(s.conn.Err(), closeErr)
}

// server is one connection's state.
type server struct {
	ctx  context.Context // the connection's: ends when it does
	opts Options
	log  *slog.Logger
	conn jsonrpc2.Conn
	exit chan struct{}
	// routes is the method table.
	routes map[string]handler
	// checks counts the checks running, so Serve waits for them.
	checks sync.WaitGroup
	// publish serializes the publishing of checks' diagnostics: a
	// check's diagnostics never overtake a newer check's.
	publish sync.Mutex

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	exited      bool
	enc         encoding
	clangdEnc   bool // the client asked with clangd's offsetEncoding
	includeDirs []string
	defines     map[string]string
	docs        map[string]*document // open documents, by path
	// published holds, per document checked, the diagnostics it gave
	// each file (itself and what it includes), by path.
	published map[string]map[string][]Diagnostic
}

func newServer(ctx context.Context, opts Options) *server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	s := &server{ctx: ctx, opts: opts, log: log, exit: make(chan struct{}), enc: utf16Enc,
		includeDirs: opts.IncludeDirs, defines: opts.Defines,
		docs: map[string]*document{}, published: map[string]map[string][]Diagnostic{}}
	s.routes = s.methods()
	return s
}

// handle answers one message. Every method's work is in a function of
// its own; handle decodes, routes, and turns a panic into an error.
func (s *server) handle(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	method := req.Method()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("internal error", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in p4hls answering %s: %v", method, r)
		}
		if err != nil && !req.IsCall() {
			// A notification has no answer, and its error would end the
			// connection: log it instead.
			s.log.Warn("notification", "method", method, "error", err)
			result, err = nil, nil
		}
	}()
	params := req.Params()
	if drop, err := s.ready(method, req.IsCall()); drop || err != nil {
		return nil, err
	}
	h, ok := s.routes[method]
	if !ok {
		if req.IsCall() {
			return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "p4hls does not answer %s", method)
		}
		return nil, nil // notifications p4hls does not use ($/setTrace, ...)
	}
	return h(ctx, json.RawMessage(params))
}

// ready refuses what the protocol's state does not allow: a request
// before initialize, or after shutdown; a notification before initialize
// (but exit) is dropped, as LSP says.
func (s *server) ready(method string, call bool) (drop bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case method == "initialize" || method == "exit":
		return false, nil
	case !s.initialized && call:
		return false, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "initialize first")
	case !s.initialized:
		return true, nil
	case s.shutdown && call:
		return false, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down")
	}
	return false, nil
}

type handler func(ctx context.Context, params json.RawMessage) (any, error)

// methods is the method table.
func (s *server) methods() map[string]handler {
	return map[string]handler{
		"initialize":                  s.initialize,
		"initialized":                 func(context.Context, json.RawMessage) (any, error) { return nil, nil },
		"shutdown":                    s.shutdownRequest,
		"exit":                        s.exitNotification,
		"textDocument/didOpen":        s.didOpen,
		"textDocument/didChange":      s.didChange,
		"textDocument/didClose":       s.didClose,
		"textDocument/didSave":        func(context.Context, json.RawMessage) (any, error) { return nil, nil },
		"textDocument/hover":          s.hover,
		"textDocument/definition":     s.definition,
		"textDocument/references":     s.references,
		"textDocument/documentSymbol": s.documentSymbol,
		"textDocument/completion":     s.completion,
	}
}

// decode reads a method's parameters.
func decode(params json.RawMessage, into any) error {
	if err := json.Unmarshal(params, into); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "parameters: %v", err)
	}
	return nil
}

func (s *server) initialize(_ context.Context, params json.RawMessage) (any, error) {
	var p initializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialized = true
	s.enc = chooseEncoding(p.Capabilities.General.PositionEncodings)
	if len(p.Capabilities.General.PositionEncodings) == 0 && len(p.Capabilities.OffsetEncoding) > 0 {
		s.enc, s.clangdEnc = chooseEncoding(p.Capabilities.OffsetEncoding), true
	}
	if o := p.InitializationOptions; o != nil {
		s.includeDirs = append(append([]string{}, s.includeDirs...), o.IncludeDirs...)
		defines := map[string]string{}
		for k, v := range s.defines {
			defines[k] = v
		}
		for k, v := range o.Defines {
			defines[k] = v
		}
		s.defines = defines
	}
	res := initializeResult{
		Capabilities: serverCapabilities{PositionEncoding: string(s.enc),
			TextDocumentSync:   textDocumentSync{OpenClose: true, Change: syncIncremental},
			HoverProvider:      true,
			DefinitionProvider: true, ReferencesProvider: true, DocumentSymbolProvider: true,
			CompletionProvider: completionOptions{TriggerCharacters: []string{"."}}},
		ServerInfo: serverInfo{Name: "p4hls", Version: s.opts.Version},
	}
	if s.clangdEnc {
		res.OffsetEncoding = string(s.enc)
	}
	return res, nil
}

func (s *server) shutdownRequest(context.Context, json.RawMessage) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = true
	return nil, nil
}

func (s *server) exitNotification(context.Context, json.RawMessage) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.exited {
		s.exited = true
		close(s.exit)
	}
	return nil, nil
}

// request is the check of a document: the texts of the open documents
// stand in for their files, so an edit to an included file counts
// before it is saved.
func (s *server) request(path, text string) check.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	open := map[string][]byte{}
	for p, d := range s.docs {
		open[p] = []byte(d.text)
	}
	read := func(name string) ([]byte, error) {
		if text, ok := open[name]; ok {
			return text, nil
		}
		return frontend.ReadSource(name)
	}
	return check.Request{File: path, Source: []byte(text),
		Frontend: frontend.Options{IncludeDirs: s.includeDirs, Defines: s.defines, ReadFile: read}}
}

// tolerant is the header stream, except that a frame whose body is not a
// JSON-RPC message is answered with a parse error and skipped, as the
// JSON-RPC specification asks, rather than ending the connection. A
// broken header still ends it: the stream's framing is lost.
type tolerant struct {
	jsonrpc2.Stream
	log *slog.Logger
}

// frameReader is the header stream's frame reader.
type frameReader interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
}

func (t *tolerant) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	frames, ok := t.Stream.(frameReader)
	if !ok {
		return t.Stream.Read(ctx)
	}
	for {
		body, n, err := frames.ReadFrame(ctx)
		if err != nil {
			return nil, 0, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, n, nil
		}
		t.log.Warn("unreadable message", "error", err)
		resp := jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.Errorf(jsonrpc2.ParseError, "unreadable message: %v", err))
		if _, werr := t.Stream.Write(ctx, resp); werr != nil {
			return nil, 0, werr
		}
	}
}

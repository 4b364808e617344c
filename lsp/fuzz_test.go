package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// frame is one message as the base protocol frames it.
func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// syncBuffer is a buffer written by the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// readOnly is a stream that reads input and keeps what is written.
type readOnly struct {
	io.Reader
	out *syncBuffer
}

func (r readOnly) Write(p []byte) (int, error) { return r.out.Write(p) }
func (r readOnly) Close() error                { return nil }

// serveBytes runs a server on input until it ends (or a time limit) and
// returns what it wrote.
func serveBytes(t testing.TB, input []byte) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out := &syncBuffer{}
	_ = Serve(ctx, readOnly{Reader: bytes.NewReader(input), out: out}, Options{Debounce: time.Millisecond})
	if ctx.Err() != nil {
		t.Fatalf("the server did not stop at the end of its input %q", input)
	}
	return out.String()
}

// TestUnreadableMessage: a frame whose body is not JSON is answered with
// a parse error (-32700), and the next message is read and answered.
func TestUnreadableMessage(t *testing.T) {
	input := frame("{not json") + frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	out := serveBytes(t, []byte(input))
	if !strings.Contains(out, `"code":-32700`) {
		t.Errorf("no parse error in %q", out)
	}
	if !strings.Contains(out, `"id":1,"result":{"capabilities"`) {
		t.Errorf("initialize after the bad frame was not answered: %q", out)
	}
}

// FuzzServe feeds the server's message reader anything: it must neither
// crash nor hang, whatever the frames and their JSON hold.
func FuzzServe(f *testing.F) {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-8"]}}}}`
	open := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///fuzz/a.p4","languageId":"p4","version":1,"text":"header h_t { bit<8> f; }\nstruct s { h_t h; }\ncontrol C(inout s x) { apply { x.h.f = x.h.g; } }\n"}}}`
	hover := `{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///fuzz/a.p4"},"position":{"line":2,"character":33}}}`
	change := `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///fuzz/a.p4","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":-4},"end":{"line":0,"character":99}},"text":"é"}]}}`
	complete := `{"jsonrpc":"2.0","id":3,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///fuzz/a.p4"},"position":{"line":2,"character":30}}}`
	f.Add([]byte(frame(init) + frame(open) + frame(hover) + frame(change) + frame(complete)))
	f.Add([]byte(frame(init) + frame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/definition","params":null}`)))
	f.Add([]byte(frame(`[]`) + frame(`[1,2]`) + frame(`{"jsonrpc":"2.0","id":{},"method":1}`)))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 2\r\n\r\n{}Content-Length: x\r\n\r\n"))
	f.Fuzz(func(t *testing.T, input []byte) {
		serveBytes(t, input)
	})
}

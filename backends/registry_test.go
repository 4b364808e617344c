package backends

import (
	"context"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/target"
)

// fake is a backend of a target called name, with the options opts; bad
// leaves its limits unset.
type fake struct {
	name string
	opts []Option
	bad  bool
}

func (f fake) Target() *target.Target {
	var d diag.List
	stateful := grammar.Parse("s.alu", []byte("stateful s(state x; packet a) { x = x + a; output x; }"), &d)
	stateless := grammar.Parse("l.alu", []byte("stateless l(packet a, b) { output a + b; }"), &d)
	tg := &target.Target{Name: f.name, Grammars: []*grammar.Grammar{stateful, stateless}, Stateful: "s", Stateless: "l",
		Limits: target.Limits{Stages: 1, ALUsPerStage: 1, StatefulALUsPerStage: 1, TablesPerStage: 1, EntriesPerTable: 1,
			Containers: 1, ContainerBits: 32, WordBits: 32}}
	if f.bad {
		tg.Limits.Stages = 0
	}
	return tg
}

func (f fake) Options() []Option { return f.opts }

func (fake) Emit(context.Context, *Compiled, Options) (*Output, error) { return &Output{}, nil }

func TestNewRegistry(t *testing.T) {
	r, err := NewRegistry(fake{name: "a"}, fake{name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Names(), ","); got != "a,b" {
		t.Errorf("names %s", got)
	}
	if b, err := r.Lookup("b"); err != nil || b.Target().Name != "b" {
		t.Errorf("Lookup(b): %v", err)
	}
	if _, err := r.Lookup("c"); err == nil || err.Error() != `unknown target "c" (targets: a, b)` {
		t.Errorf("Lookup(c): %v", err)
	}
	if _, err := NewRegistry(fake{name: "a"}, fake{name: "a"}); err == nil || err.Error() != "two targets are called a" {
		t.Errorf("two of a name: %v", err)
	}
	if _, err := NewRegistry(fake{name: "a", bad: true}); err == nil || !strings.Contains(err.Error(), "limit Stages is 0") {
		t.Errorf("no stages: %v", err)
	}
	if got := StatefulGrammars(fake{name: "a"}); len(got) != 1 || got[0] != "s" {
		t.Errorf("stateful grammars %v", got)
	}
}

func TestOptions(t *testing.T) {
	b := fake{name: "m", opts: []Option{{Name: "tenant", Default: "1"}, {Name: "speed", Default: "fast"}}}
	o := Options{"tenant": "3"}
	if err := o.Check(b); err != nil {
		t.Error(err)
	}
	if v := o.Value(b, "tenant"); v != "3" {
		t.Errorf("tenant %q, want 3", v)
	}
	if v := o.Value(b, "speed"); v != "fast" {
		t.Errorf("speed %q, want the default fast", v)
	}
	if err := (Options{"color": "red"}).Check(b); err == nil || err.Error() != `target m has no option "color" (options: tenant, speed)` {
		t.Errorf("an unknown option: %v", err)
	}
	if err := (Options{"color": "red"}).Check(fake{name: "n"}); err == nil || err.Error() != `target n takes no options; it was given "color"` {
		t.Errorf("an option of a target without options: %v", err)
	}
}

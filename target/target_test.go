package target

import (
	"strings"
	"testing"
)

func TestLimitsValidate(t *testing.T) {
	ok := Limits{Stages: 12, ALUsPerStage: 8, StatefulALUsPerStage: 2, TablesPerStage: 4, EntriesPerTable: 16,
		Containers: 8, ContainerBits: 32, WordBits: 32}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid limits: %v", err)
	}
	tests := []struct {
		name   string
		change func(*Limits)
		want   string
	}{
		{"no stages", func(l *Limits) { l.Stages = 0 }, "limit Stages is 0; it must be positive"},
		{"negative entries", func(l *Limits) { l.EntriesPerTable = -1 }, "limit EntriesPerTable is -1"},
		{"every ALU reserved", func(l *Limits) { l.HeaderALUs = 8 }, "limit HeaderALUs is 8; it must be from 0 to ALUsPerStage-1"},
		{"no word width", func(l *Limits) { l.WordBits = 0 }, "limit WordBits is 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := ok
			tc.change(&l)
			err := l.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestGrammarLookup(t *testing.T) {
	tg := &Target{Name: "x", Limits: Limits{}}
	if _, err := tg.Grammar("nosuch"); err == nil || !strings.Contains(err.Error(), `target x has no ALU "nosuch"`) {
		t.Errorf("got %v", err)
	}
	if err := tg.Validate(); err == nil {
		t.Error("a target with no limits and no grammars validated")
	}
}

func TestLimitsWith(t *testing.T) {
	l := Limits{Stages: 12, ALUsPerStage: 224, StatefulALUsPerStage: 4, TablesPerStage: 16, EntriesPerTable: 4096}
	got, err := l.With(6, 2, 0, 0)
	want := Limits{Stages: 6, ALUsPerStage: 2, StatefulALUsPerStage: 2, TablesPerStage: 16, EntriesPerTable: 4096}
	if err != nil || got != want {
		t.Errorf("With(6, 2, 0, 0) = %+v, %v; want %+v", got, err, want)
	}
	if got, _ := l.With(0, 0, 0, 0); got != l {
		t.Errorf("With(0, 0, 0, 0) changed the limits: %+v", got)
	}
	if _, err := l.With(0, 0, -1, 0); err == nil || err.Error() != "tables per stage: -1 is not a count" {
		t.Errorf("a negative count: %v", err)
	}
}

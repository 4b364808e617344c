package synth

import (
	"errors"
	"fmt"

	"github.com/p4hls/p4hls/ir"
)

// withWhy adds to the refusal of an action without @atomic code why it
// is synthesized at all: the message must not read as if the programmer
// had asked for a transaction.
func withWhy(a *ir.Action, err error) error {
	var u *UnsupportedError
	if ir.AtomicIn(a.Body) || !errors.As(err, &u) {
		return err
	}
	r := ir.RegisterCall(a.Body)
	if r == nil {
		return err
	}
	return &UnsupportedError{Span: u.Span, Msg: fmt.Sprintf("%s (action %s uses register %s outside @atomic code, which p4hls maps onto a stateful ALU as it does an @atomic block)",
		u.Msg, a.Name, r.Call.Callee.Recv.(*ir.InstanceRef).Inst.Name)}
}

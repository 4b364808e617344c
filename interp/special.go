package interp

import (
	"errors"
	"slices"

	"github.com/p4hls/p4hls/ir"
)

// v1model's resubmit, recirculation and clones, as BMv2's simple_switch
// runs them. The ingress's requests are served when it ends: an
// ingress-to-egress clone takes the packet as it came in, parsed again,
// to the egress of the clone session's port; a resubmitted packet (not
// forwarded then) comes in again as it first came. The egress's are
// served where simple_switch serves them: an egress-to-egress clone
// copies the headers as the egress left them (the metadata reset) to the
// egress of the session's port, before a drop is looked at; a
// recirculated packet, once deparsed, comes in again instead of going
// out. Each new packet keeps the user metadata of the field list its call
// named (@field_list) and has its instance type; a clone to a session the
// control plane did not configure is not made, as in BMv2.

// The instance types BMv2 gives such packets (v1model.p4's
// PKT_INSTANCE_TYPE_*).
const (
	instanceIngressClone = 1
	instanceEgressClone  = 2
	instanceRecirculated = 4
	instanceResubmitted  = 6
)

// maxPasses bounds the passes one packet takes (resubmissions,
// recirculations and clones of clones): BMv2 has no bound, and a program
// that resubmits every packet would run forever.
const maxPasses = 64

// ErrTooManyPasses is the fault of a packet resubmitted, recirculated or
// cloned past maxPasses.
var ErrTooManyPasses = errors.New("the packet was resubmitted, recirculated or cloned more than 64 times: does every pass ask for another?")

// requests are the special operations the block that ran asked for; a
// field list of -1 is none asked.
type requests struct {
	clone       bool
	cloneE2E    bool
	session     uint64
	cloneList   int
	resubmit    int
	recirculate int
}

func noRequests() requests { return requests{cloneList: -1, resubmit: -1, recirculate: -1} }

// laterPass is a packet a special operation made, to run once the packet
// that made it is done.
type laterPass struct {
	ingress  bool   // a resubmitted or recirculated packet; else a clone for the egress
	data     []byte // ingress, ingress-to-egress clone: the packet's bytes
	hdr      Value  // egress-to-egress clone: the headers
	payload  []byte
	instance uint64
	keep     Value // the metadata whose field-list fields it keeps
	list     int
	port     uint64 // a clone's: the session's
	inPort   uint64
}

// SetMirrorSession makes clones to session go out of port (simple_switch's
// mirroring_add).
func (sw *Switch) SetMirrorSession(session, port uint64) {
	if sw.mirrors == nil {
		sw.mirrors = map[uint64]uint64{}
	}
	sw.mirrors[session] = port
}

// serveIngressRequests queues what the ingress asked for: its clone, and
// its resubmission (true: the packet goes no further).
func (sw *Switch) serveIngressRequests(inPort uint64, data []byte) (resubmitted bool) {
	r := sw.req
	if port, ok := sw.mirrors[r.session]; r.clone && !r.cloneE2E && ok {
		sw.later = append(sw.later, laterPass{data: data, instance: instanceIngressClone, keep: sw.kept(r.cloneList), list: r.cloneList, port: port, inPort: inPort})
	}
	if r.resubmit >= 0 {
		sw.later = append(sw.later, laterPass{ingress: true, data: data, instance: instanceResubmitted, keep: sw.kept(r.resubmit), list: r.resubmit, inPort: inPort})
	}
	return r.resubmit >= 0
}

// serveEgressClone queues the egress's clone, before the egress's drop.
func (sw *Switch) serveEgressClone() {
	r := sw.req
	if port, ok := sw.mirrors[r.session]; r.clone && r.cloneE2E && ok {
		sw.later = append(sw.later, laterPass{hdr: copyValue(sw.hdr), payload: sw.payload, instance: instanceEgressClone,
			keep: sw.kept(r.cloneList), list: r.cloneList, port: port, inPort: sw.getStd("ingress_port")})
	}
}

// serveRecirculation queues the deparsed packet to come in again, when the
// egress asked (true: it does not go out).
func (sw *Switch) serveRecirculation(pkt *packet) bool {
	r := sw.req
	if r.recirculate < 0 {
		return false
	}
	data := append(append([]byte(nil), pkt.out...), sw.payload...)
	sw.later = append(sw.later, laterPass{ingress: true, data: data, instance: instanceRecirculated,
		keep: sw.kept(r.recirculate), list: r.recirculate, inPort: sw.getStd("ingress_port")})
	return true
}

// kept copies the metadata for a new packet to keep the fields of list
// from (none when list is -1).
func (sw *Switch) kept(list int) Value {
	if list < 0 {
		return Value{}
	}
	return copyValue(sw.meta)
}

// keepFields gives the metadata of the packet being processed the fields
// of field list list that keep holds.
func (sw *Switch) keepFields(keep Value, list int) {
	if keep.Agg != nil {
		keepListed(&sw.meta, keep, sw.metaType, list)
	}
}

func keepListed(dst *Value, src Value, t ir.Type, list int) {
	st, ok := t.(*ir.Struct)
	if !ok || dst.Agg == nil || src.Agg == nil {
		return
	}
	for i, f := range st.Fields {
		switch {
		case slices.Contains(f.FieldLists, list):
			assignInto(&dst.Agg.Fields[i], copyValue(src.Agg.Fields[i]))
		default:
			keepListed(&dst.Agg.Fields[i], src.Agg.Fields[i], f.Type, list)
		}
	}
}

// runLater runs a packet a special operation made: through the ingress
// again, or, a clone, through the egress of its session's port.
func (sw *Switch) runLater(p laterPass) {
	if p.ingress {
		sw.ingressPass(p.inPort, p.data, p.instance, p.keep, p.list)
		return
	}
	sw.truncate = 0
	sw.pkt = packet{data: p.data, out: sw.pkt.out[:0]}
	pkt := &sw.pkt
	sw.resetPacketState()
	sw.setStd("ingress_port", p.inPort)
	if p.data != nil { // an ingress-to-egress clone: the packet as it came in, parsed again
		sw.setStd("packet_length", uint64(len(p.data)))
		sw.runParser(pkt, sw.hdr, sw.meta, sw.std)
		sw.payload = p.data[min(len(p.data), (pkt.pos+7)/8):]
	} else {
		assignInto(&sw.hdr, p.hdr)
		sw.payload = p.payload
	}
	sw.setStd("instance_type", p.instance)
	sw.keepFields(p.keep, p.list)
	sw.setStd("egress_port", p.port)
	sw.setStd("egress_spec", p.port)
	args, nargs := sw.blockArgs()
	if p.data != nil {
		sw.runBlock(0, pkt, &args, &nargs) // verify checksum: BMv2 parses the copy anew
	}
	if sw.egress(pkt, &args, &nargs) {
		sw.outs = append(sw.outs, sw.output(pkt))
	}
}

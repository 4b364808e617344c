package api

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// textCodec is gRPC's protobuf codec with one difference: a request whose
// text fields hold invalid UTF-8 still decodes, so the handler can refuse
// it with InvalidArgument naming each such field. protobuf-go refuses
// such a message while decoding, before any handler runs, and grpc-go
// turns every decoding failure into Internal, which would say the fault
// is the server's. The codec decodes the message again with each bad
// text made valid (U+FFFD for each bad byte) and records the fields'
// names in an unknown field of the message, which notUTF8 reads.
type textCodec struct{}

// notUTF8Field is the number of the unknown field that carries the name
// of a text field that was not UTF-8: the largest field number, which no
// message of the contract uses.
const notUTF8Field = protowire.MaxValidNumber

func (textCodec) Name() string { return "proto" }

func (textCodec) Marshal(v any) ([]byte, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("codec: %T is not a protobuf message", v)
	}
	return proto.Marshal(m)
}

func (textCodec) Unmarshal(data []byte, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return fmt.Errorf("codec: %T is not a protobuf message", v)
	}
	err := proto.Unmarshal(data, m)
	if err == nil || !strings.Contains(err.Error(), "invalid UTF-8") {
		return err
	}
	fixed, bad, err := validText(data, m.ProtoReflect().Descriptor(), "")
	if err != nil {
		return err
	}
	if err := proto.Unmarshal(fixed, m); err != nil {
		return err
	}
	r := m.ProtoReflect()
	unknown := r.GetUnknown()
	for _, name := range bad {
		unknown = protowire.AppendTag(unknown, notUTF8Field, protowire.BytesType)
		unknown = protowire.AppendString(unknown, name)
	}
	r.SetUnknown(unknown)
	return nil
}

// validText copies the encoded message data of descriptor md with each
// text field's invalid UTF-8 replaced, and names those fields (under
// prefix): a map entry as map[key], a nested message's fields after a dot.
func validText(data []byte, md protoreflect.MessageDescriptor, prefix string) ([]byte, []string, error) {
	var out []byte
	var bad []string
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return nil, nil, protowire.ParseError(n)
		}
		data = data[n:]
		if typ != protowire.BytesType {
			m := protowire.ConsumeFieldValue(num, typ, data)
			if m < 0 {
				return nil, nil, protowire.ParseError(m)
			}
			out = protowire.AppendTag(out, num, typ)
			out = append(out, data[:m]...)
			data = data[m:]
			continue
		}
		value, m := protowire.ConsumeBytes(data)
		if m < 0 {
			return nil, nil, protowire.ParseError(m)
		}
		data = data[m:]
		value, names, err := validField(value, md.Fields().ByNumber(num), prefix)
		if err != nil {
			return nil, nil, err
		}
		bad = append(bad, names...)
		out = protowire.AppendTag(out, num, protowire.BytesType)
		out = protowire.AppendBytes(out, value)
	}
	return out, bad, nil
}

// validField makes one length-delimited field's value valid (fd is nil
// for a field the contract does not know, which is kept as it is).
func validField(value []byte, fd protoreflect.FieldDescriptor, prefix string) ([]byte, []string, error) {
	if fd == nil {
		return value, nil, nil
	}
	name := prefix + string(fd.Name())
	if fd.ContainingMessage().IsMapEntry() {
		name = prefix // the entry: files["a.p4"]
		if fd.Number() == 1 {
			name += " (a key)"
		}
	}
	switch {
	case fd.Kind() == protoreflect.StringKind:
		if utf8.Valid(value) {
			return value, nil, nil
		}
		return []byte(strings.ToValidUTF8(string(value), "\uFFFD")), []string{name}, nil
	case fd.IsMap():
		return validText(value, fd.Message(), name+mapKey(value, fd.Message()))
	case fd.Kind() == protoreflect.MessageKind:
		return validText(value, fd.Message(), name+".")
	}
	return value, nil, nil
}

// mapKey names a map entry by its key ("[\"a.p4\"]"), or "[]" when the
// key is not valid text: a bad value reads files["a.p4"], a bad key
// files[] (a key).
func mapKey(entry []byte, md protoreflect.MessageDescriptor) string {
	key := md.Fields().ByNumber(1)
	for len(entry) > 0 {
		num, typ, n := protowire.ConsumeTag(entry)
		if n < 0 {
			break
		}
		entry = entry[n:]
		m := protowire.ConsumeFieldValue(num, typ, entry)
		if m < 0 {
			break
		}
		if num == 1 && typ == protowire.BytesType && key.Kind() == protoreflect.StringKind {
			if k, _ := protowire.ConsumeBytes(entry); utf8.Valid(k) {
				return fmt.Sprintf("[%q]", k)
			}
		}
		entry = entry[m:]
	}
	return "[]"
}

// notUTF8 lists the text fields textCodec found were not UTF-8 in m.
func notUTF8(m proto.Message) []string {
	var names []string
	unknown := m.ProtoReflect().GetUnknown()
	for len(unknown) > 0 {
		num, typ, n := protowire.ConsumeTag(unknown)
		if n < 0 {
			break
		}
		unknown = unknown[n:]
		m := protowire.ConsumeFieldValue(num, typ, unknown)
		if m < 0 {
			break
		}
		if num == notUTF8Field && typ == protowire.BytesType {
			s, _ := protowire.ConsumeString(unknown)
			names = append(names, s)
		}
		unknown = unknown[m:]
	}
	return names
}

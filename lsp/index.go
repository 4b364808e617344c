package lsp

import (
	"reflect"
	"sort"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// ref is one name in the program: a declaration's own name, or a use of
// one, with what it denotes.
type ref struct {
	span   diag.Span     // the name as written
	target frontend.Node // the declaring node; nil when unresolved
	decl   bool          // the declaration's own name
	expr   frontend.Expr // a use's expression, for its type
}

// index is what the editor's questions are answered from: every name of
// a checked program with the declaration it denotes.
type index struct {
	checked *frontend.Checked
	refs    []ref // by file, then place
	// owner is the struct, header or union declaring each field; parent
	// the parser or control declaring each local (for the outline and
	// for completion's scope).
	owner map[*frontend.Field]*frontend.StructDecl
}

// frontendPkg is the package path of the AST's types: the walk descends
// into them only (not into big.Int or spans).
var frontendPkg = reflect.TypeFor[frontend.File]().PkgPath()

// newIndex indexes a checked program (one whose parse failed has no
// names resolved, and only its declarations are indexed).
func newIndex(c *frontend.Checked) *index {
	ix := &index{checked: c, owner: map[*frontend.Field]*frontend.StructDecl{}}
	if c == nil || c.File == nil {
		return ix
	}
	w := &walker{ix: ix}
	w.value(reflect.ValueOf(c.File))
	sort.SliceStable(ix.refs, func(i, j int) bool {
		a, b := ix.refs[i].span, ix.refs[j].span
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Start.Less(b.Start)
	})
	return ix
}

// walker visits every AST node, knowing the nodes above it. It walks by
// reflection so that a node type the frontend adds is walked too.
type walker struct {
	ix      *index
	parents []frontend.Node
}

func (w *walker) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			w.value(v.Elem())
		}
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().PkgPath() != frontendPkg {
			return
		}
		node, isNode := v.Interface().(frontend.Node)
		if isNode {
			w.visit(node)
			w.parents = append(w.parents, node)
		}
		w.fields(v.Elem())
		if isNode {
			w.parents = w.parents[:len(w.parents)-1]
		}
	case reflect.Slice:
		for i := range v.Len() {
			w.value(v.Index(i))
		}
	case reflect.Struct:
		if v.Type().PkgPath() == frontendPkg {
			w.fields(v)
		}
	}
}

func (w *walker) fields(v reflect.Value) {
	for i := range v.NumField() {
		if v.Type().Field(i).IsExported() {
			w.value(v.Field(i))
		}
	}
}

func (w *walker) parent() frontend.Node {
	if len(w.parents) == 0 {
		return nil
	}
	return w.parents[len(w.parents)-1]
}

// visit records the names n declares or uses.
func (w *walker) visit(n frontend.Node) {
	ix, c := w.ix, w.ix.checked
	switch n := n.(type) {
	case *frontend.EnumDecl:
		for _, m := range n.Members {
			ix.declare(m.Name, m.Name)
		}
	case *frontend.ErrorDecl:
		for _, m := range n.Members {
			ix.declare(m, m)
		}
	case *frontend.MatchKindDecl:
		for _, m := range n.Members {
			ix.declare(m, m)
		}
	case *frontend.StructDecl:
		for _, f := range n.Fields {
			ix.owner[f] = n
		}
	case *frontend.Param:
		ix.declare(n.Name, n)
	case *frontend.Field:
		ix.declare(n.Name, n)
	case *frontend.ParserState:
		ix.declare(n.Name, n)
	case *frontend.FuncProto:
		if ext, ok := w.parent().(*frontend.ExternDecl); ok && ext.Func != n {
			ix.declare(n.Name, n) // a method
		}
	case *frontend.NameExpr:
		if sym := c.Uses[n]; sym != nil {
			ix.use(n.Sp, sym.Decl, n)
		} else {
			ix.use(n.Sp, nil, n)
		}
	case *frontend.NamedType:
		ix.use(n.Name.Sp, ix.typeDecl(n.Name.Name), nil)
	case *frontend.MemberExpr:
		ix.use(n.Name.Sp, ix.member(n), n)
	case *frontend.ActionRef:
		if a := c.ActionOf[n]; a != nil {
			ix.use(n.Name.Sp, a, nil)
		}
	case *frontend.Transition:
		if n.Next != nil {
			ix.use(n.Next.Sp, w.state(n.Next.Name), nil)
		}
	case *frontend.SelectCase:
		if n.State != nil {
			ix.use(n.State.Sp, w.state(n.State.Name), nil)
		}
	}
	if d, ok := n.(frontend.Decl); ok && d.DeclName() != nil {
		ix.declare(d.DeclName(), d)
	}
}

func (ix *index) declare(name *frontend.Ident, target frontend.Node) {
	if name != nil {
		ix.refs = append(ix.refs, ref{span: name.Sp, target: target, decl: true})
	}
}

func (ix *index) use(at diag.Span, target frontend.Node, e frontend.Expr) {
	if target != nil && !target.Span().Start.IsValid() {
		target = nil // accept and reject, which no file declares
	}
	ix.refs = append(ix.refs, ref{span: at, target: target, expr: e})
}

// typeDecl is the declaration of a global type name.
func (ix *index) typeDecl(name string) frontend.Node {
	if ix.checked.Globals == nil {
		return nil
	}
	if sym := ix.checked.Globals.Lookup(name); sym != nil && sym.Kind == frontend.SymType {
		return sym.Decl
	}
	return nil
}

// state is the parser state called name in the parser being walked.
func (w *walker) state(name string) frontend.Node {
	for i := len(w.parents) - 1; i >= 0; i-- {
		if p, ok := w.parents[i].(*frontend.ParserDecl); ok {
			for _, s := range p.States {
				if s.Name.Name == name {
					return s
				}
			}
		}
	}
	return nil
}

// member is the declaration x.name denotes: a field, a method of an
// extern, an enum's member, a table's apply.
func (ix *index) member(e *frontend.MemberExpr) frontend.Node {
	t := ix.checked.Types[e.X]
	if t == nil {
		if name, ok := e.X.(*frontend.NameExpr); ok {
			t = ix.typeOfName(name)
		}
	}
	name := e.Name.Name
	switch t := t.(type) {
	case *frontend.StructType:
		if s, ok := ix.typeDecl(t.Name).(*frontend.StructDecl); ok {
			for _, f := range s.Fields {
				if f.Name.Name == name {
					return f
				}
			}
		}
	case *frontend.ObjectType:
		if ext, ok := t.Decl.(*frontend.ExternDecl); ok {
			for _, m := range ext.Methods {
				if m.Name.Name == name {
					return m
				}
			}
		}
	case *frontend.EnumType:
		if en, ok := ix.typeDecl(t.Name).(*frontend.EnumDecl); ok {
			for _, m := range en.Members {
				if m.Name.Name == name {
					return m.Name
				}
			}
		}
	case *frontend.TableType:
		if name == "apply" {
			return t.Decl
		}
	}
	return nil
}

// typeOfName is the type a name used as an expression's head denotes
// (MyEnum in MyEnum.A).
func (ix *index) typeOfName(n *frontend.NameExpr) frontend.Type {
	if sym := ix.checked.Uses[n]; sym != nil {
		return sym.Type
	}
	if ix.checked.Globals != nil {
		if sym := ix.checked.Globals.Lookup(n.Name); sym != nil {
			return sym.Type
		}
	}
	return nil
}

// at is the name at p in file: the innermost that holds p, or ends just
// before it (a cursor after a word); nil when there is none.
func (ix *index) at(file string, p diag.Pos) *ref {
	var best *ref
	for i := range ix.refs {
		r := &ix.refs[i]
		if r.span.File != file || p.Less(r.span.Start) || r.span.End.Less(p) {
			continue
		}
		if best == nil || best.span.Start.Less(r.span.Start) {
			best = r
		}
	}
	return best
}

// refsTo are the names that denote target (its declaration's own name
// among them when withDecl).
func (ix *index) refsTo(target frontend.Node, withDecl bool) []ref {
	var out []ref
	for _, r := range ix.refs {
		if r.target == target && (withDecl || !r.decl) {
			out = append(out, r)
		}
	}
	return out
}

// nameSpan is where a declaration's name is written.
func nameSpan(n frontend.Node) diag.Span {
	switch d := n.(type) {
	case frontend.Decl:
		if id := d.DeclName(); id != nil {
			return id.Sp
		}
	case *frontend.Param:
		return d.Name.Sp
	case *frontend.Field:
		return d.Name.Sp
	case *frontend.ParserState:
		return d.Name.Sp
	case *frontend.FuncProto:
		return d.Name.Sp
	}
	return n.Span()
}

package frontend

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/antlr4-go/antlr/v4"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend/parser"
	"github.com/p4hls/p4hls/ir"
)

// builder turns the ANTLR parse tree into the AST. It runs only on a tree
// that parsed without syntax errors, so every required child is present; it
// still checks what the grammar leaves loose (integer digits, widths).
type builder struct {
	src   *Source
	diags *diag.List
	// built holds statements built as they were parsed (stmtBuilder),
	// until the statement or declaration around them takes them.
	built map[parser.IStatementContext]Stmt
}

// stmtBuilder listens to the parser: it builds each statement as soon as it
// is parsed and drops the statement's parse tree, which is several times the
// size of its AST. The statements of a block are then never in memory as a
// parse tree all at once.
type stmtBuilder struct {
	antlr.BaseParseTreeListener
	b *builder
}

func (l *stmtBuilder) ExitEveryRule(ctx antlr.ParserRuleContext) {
	c, ok := ctx.(*parser.StatementContext)
	if !ok {
		return
	}
	s := l.b.stmt(c)
	// CopyFrom keeps the context's parent and tokens, and drops its
	// children: the parse tree below it.
	whole := c.BaseParserRuleContext
	c.BaseParserRuleContext.CopyFrom(&whole)
	l.b.built[c] = s
}

type ruleCtx interface {
	GetStart() antlr.Token
	GetStop() antlr.Token
}

func (b *builder) at(c ruleCtx) At { return At{b.src.span(c.GetStart(), c.GetStop())} }

func (b *builder) ident(c parser.INameContext) *Ident {
	return &Ident{At: b.at(c), Name: c.GetText()}
}

func (b *builder) identTok(t antlr.TerminalNode) *Ident {
	tok := t.GetSymbol()
	return &Ident{At: At{b.src.tokenSpan(tok)}, Name: tok.GetText()}
}

func (b *builder) file(c parser.IProgramContext) *File {
	f := &File{At: b.at(c)}
	for _, d := range c.AllDeclaration() {
		f.Decls = b.appendDecl(f.Decls, d)
	}
	return f
}

// programAt is the span of the program of toks, as the parser gives it to
// the program rule: from the first token to the last before the end.
func (b *builder) programAt(toks []antlr.Token) At {
	var stop antlr.Token
	if n := len(toks); n >= 2 {
		stop = toks[n-2]
	}
	return At{b.src.span(toks[0], stop)}
}

// appendDecl builds a top-level declaration and appends it to decls.
func (b *builder) appendDecl(decls []Decl, d parser.IDeclarationContext) []Decl {
	if t := d.TypeDeclaration(); t != nil && t.TypedefDeclaration() != nil && t.TypedefDeclaration().DerivedTypeDeclaration() != nil {
		// typedef struct S { ... } T; declares S, then T.
		td := t.TypedefDeclaration()
		if td.TYPE() != nil {
			b.diags.Errorf(b.at(td.DerivedTypeDeclaration()), diag.SyntaxError, "syntax error: type makes a new type of a base type; declare the struct with typedef")
		}
		inner := b.derivedType(td.DerivedTypeDeclaration())
		return append(decls, inner, &TypedefDecl{At: b.at(td), Annos: b.annotations(td.Annotations()),
			NewType: td.TYPE() != nil, Type: &NamedType{At: inner.DeclName().At, Name: inner.DeclName()}, Name: b.ident(td.Name())})
	}
	if decl := b.declaration(d); decl != nil {
		decls = append(decls, decl)
	}
	return decls
}

func (b *builder) declaration(c parser.IDeclarationContext) Decl {
	switch {
	case c.ConstantDeclaration() != nil:
		return b.constDecl(c.ConstantDeclaration())
	case c.ExternDeclaration() != nil:
		return b.externDecl(c.ExternDeclaration())
	case c.ActionDeclaration() != nil:
		return b.actionDecl(c.ActionDeclaration())
	case c.ParserDeclaration() != nil:
		return b.parserDecl(c.ParserDeclaration())
	case c.ControlDeclaration() != nil:
		return b.controlDecl(c.ControlDeclaration())
	case c.TypeDeclaration() != nil:
		return b.typeDecl(c.TypeDeclaration())
	case c.ErrorDeclaration() != nil:
		e := c.ErrorDeclaration()
		d := &ErrorDecl{At: b.at(e)}
		for _, n := range e.AllName() {
			d.Members = append(d.Members, b.ident(n))
		}
		return d
	case c.MatchKindDeclaration() != nil:
		m := c.MatchKindDeclaration()
		d := &MatchKindDecl{At: b.at(m)}
		for _, n := range m.AllName() {
			d.Members = append(d.Members, b.ident(n))
		}
		return d
	case c.FunctionDeclaration() != nil:
		return b.funcDecl(c.FunctionDeclaration())
	case c.Instantiation() != nil:
		return b.instance(c.Instantiation())
	}
	return nil // a stray ;
}

// ------------------------------------------------------------------ annotations

func (b *builder) annotations(c parser.IAnnotationsContext) Annotations {
	if c == nil {
		return nil
	}
	var out Annotations
	for _, a := range c.AllAnnotation() {
		out = append(out, b.annotation(a))
	}
	return out
}

func (b *builder) annotation(c parser.IAnnotationContext) *Annotation {
	if p := c.PRAGMA_LINE(); p != nil {
		return b.pragma(p.GetSymbol())
	}
	a := &Annotation{At: b.at(c), Name: c.Name().GetText()}
	if body := c.AnnotationBody(); body != nil {
		a.Body = b.annotationTokens(body)
		a.Exprs = b.annotationExprs(body)
	}
	if s := c.StructuredAnnotationBody(); s != nil {
		a.Structured = true
		if s.ExpressionList() != nil {
			a.Exprs = b.exprList(s.ExpressionList())
		}
		for _, kv := range s.AllKvPair() {
			a.KV = append(a.KV, b.kvPair(kv))
		}
	}
	return a
}

func (b *builder) annotationTokens(c parser.IAnnotationBodyContext) []string {
	var out []string
	var walk func(t antlr.Tree)
	walk = func(t antlr.Tree) {
		if term, ok := t.(antlr.TerminalNode); ok {
			out = append(out, term.GetText())
			return
		}
		for _, ch := range t.GetChildren() {
			walk(ch)
		}
	}
	walk(c)
	return out
}

// annotationExprs reads the body of @name(...) as literals separated by
// commas when it is exactly that (the common case: @name("a"), @priority(1)).
func (b *builder) annotationExprs(c parser.IAnnotationBodyContext) []Expr {
	var out []Expr
	expectComma := false
	for _, ch := range c.GetChildren() {
		tc, ok := ch.(parser.IAnnotationTokenContext)
		if !ok || tc.GetChildCount() != 1 {
			return nil
		}
		term, ok := tc.GetChild(0).(antlr.TerminalNode)
		if !ok {
			return nil
		}
		tok := term.GetSymbol()
		if expectComma {
			if tok.GetTokenType() != parser.P4LexerCOMMA {
				return nil
			}
			expectComma = false
			continue
		}
		switch tok.GetTokenType() {
		case parser.P4LexerSTRING_LITERAL:
			out = append(out, &StringLit{At: At{b.src.tokenSpan(tok)}, Value: unquote(tok.GetText())})
		case parser.P4LexerINTEGER:
			out = append(out, b.intLit(tok))
		case parser.P4LexerTRUE, parser.P4LexerFALSE:
			out = append(out, &BoolLit{At: At{b.src.tokenSpan(tok)}, Value: tok.GetTokenType() == parser.P4LexerTRUE})
		default:
			return nil
		}
		expectComma = true
	}
	return out
}

// pragma reads p4c's `@pragma NAME tokens...` line as the annotation
// @NAME(tokens...).
func (b *builder) pragma(tok antlr.Token) *Annotation {
	a := &Annotation{At: At{b.src.tokenSpan(tok)}}
	lexer := parser.NewP4Lexer(antlr.NewInputStream(strings.TrimPrefix(tok.GetText(), "@pragma")))
	lexer.RemoveErrorListeners()
	for t := lexer.NextToken(); t.GetTokenType() != antlr.TokenEOF; t = lexer.NextToken() {
		if t.GetChannel() != antlr.TokenDefaultChannel {
			continue
		}
		if a.Name == "" {
			a.Name = t.GetText()
			continue
		}
		a.Body = append(a.Body, t.GetText())
		if t.GetTokenType() == parser.P4LexerSTRING_LITERAL {
			a.Exprs = append(a.Exprs, &StringLit{At: a.At, Value: unquote(t.GetText())})
		}
	}
	return a
}

func (b *builder) kvPair(c parser.IKvPairContext) *KeyValue {
	return &KeyValue{At: b.at(c), Key: b.ident(c.Name()), Value: b.expr(c.Expression())}
}

// ------------------------------------------------------------------ types

func (b *builder) typeRef(c parser.ITypeRefContext) TypeExpr {
	switch {
	case c.BaseType() != nil:
		return b.baseType(c.BaseType())
	case c.SpecializedType() != nil:
		s := c.SpecializedType()
		t := b.typeName(s.TypeName())
		t.At = b.at(s)
		t.Args = b.typeArgs(s.TypeArgumentList())
		return t
	case c.TypeName() != nil:
		return b.typeName(c.TypeName())
	case c.TupleType() != nil:
		tt := c.TupleType()
		t := &TupleTypeExpr{At: b.at(tt), List: tt.LIST() != nil}
		if tt.TypeArgumentList() != nil { // tuple<> has none
			t.Elems = b.typeArgs(tt.TypeArgumentList())
		}
		return t
	case c.TypeRef() != nil:
		return &StackTypeExpr{At: b.at(c), Elem: b.typeRef(c.TypeRef()), Size: b.expr(c.Expression())}
	}
	return nil
}

func (b *builder) typeName(c parser.ITypeNameContext) *NamedType {
	return &NamedType{At: b.at(c), Name: b.identTok(c.TYPE_IDENTIFIER()), Global: c.DOT() != nil}
}

func (b *builder) baseType(c parser.IBaseTypeContext) TypeExpr {
	t := &BaseType{At: b.at(c)}
	switch {
	case c.BOOL() != nil:
		t.Kind = BaseBool
	case c.MATCH_KIND() != nil:
		t.Kind = BaseMatchKind
	case c.ERROR() != nil:
		t.Kind = BaseError
	case c.STRING() != nil:
		t.Kind = BaseString
	case c.BIT() != nil:
		t.Kind = BaseBit
	case c.INT() != nil:
		t.Kind = BaseInt
		if c.WidthExpression() != nil {
			t.Kind = BaseSigned
		}
	case c.VARBIT() != nil:
		t.Kind = BaseVarbit
	}
	if w := c.WidthExpression(); w != nil {
		switch {
		case w.INTEGER() != nil:
			t.Width = b.intLit(w.INTEGER().GetSymbol())
		case w.Expression() != nil:
			t.Width = b.expr(w.Expression())
		default:
			t.Width = b.widthSum(w.WidthSum())
		}
	}
	return t
}

// widthSum builds a width written without parentheses (bit<W + 2>),
// associating to the left as the expression grammar does.
func (b *builder) widthSum(c parser.IWidthSumContext) Expr {
	products := c.AllWidthProduct()
	x := b.widthProduct(products[0])
	for i, op := range c.GetOp() {
		y := b.widthProduct(products[i+1])
		at := At{x.Span().Join(y.Span())}
		x = &BinaryExpr{At: at, Op: b.op(at, op.GetText(), 2), X: x, Y: y}
	}
	return x
}

func (b *builder) widthProduct(c parser.IWidthProductContext) Expr {
	atoms := c.AllWidthAtom()
	x := b.widthAtom(atoms[0])
	for i, op := range c.GetOp() {
		y := b.widthAtom(atoms[i+1])
		at := At{x.Span().Join(y.Span())}
		x = &BinaryExpr{At: at, Op: b.op(at, op.GetText(), 2), X: x, Y: y}
	}
	return x
}

func (b *builder) widthAtom(c parser.IWidthAtomContext) Expr {
	switch {
	case c.INTEGER() != nil:
		return b.intLit(c.INTEGER().GetSymbol())
	case c.NonTypeName() != nil:
		return &NameExpr{At: b.at(c), Name: c.NonTypeName().GetText(), Global: c.DOT() != nil}
	}
	return b.expr(c.Expression())
}

func (b *builder) typeArgs(c parser.ITypeArgumentListContext) []TypeExpr {
	var out []TypeExpr
	for _, a := range c.AllTypeArgument() {
		switch {
		case a.TypeRef() != nil:
			out = append(out, b.typeRef(a.TypeRef()))
		case a.VOID() != nil:
			out = append(out, &BaseType{At: b.at(a), Kind: BaseVoid})
		default:
			out = append(out, &BaseType{At: b.at(a), Kind: BaseDontCare})
		}
	}
	return out
}

func (b *builder) typeOrVoid(c parser.ITypeOrVoidContext) TypeExpr {
	if c.VOID() != nil {
		return &BaseType{At: b.at(c), Kind: BaseVoid}
	}
	return b.typeRef(c.TypeRef())
}

func (b *builder) typeParams(c parser.ITypeParametersContext) []*Ident {
	if c == nil {
		return nil
	}
	var out []*Ident
	for _, n := range c.AllName() {
		out = append(out, b.ident(n))
	}
	return out
}

// ------------------------------------------------------------------ declarations

func (b *builder) params(c parser.IParameterListContext) []*Param {
	var out []*Param
	for _, p := range c.AllParameter() {
		param := &Param{At: b.at(p), Annos: b.annotations(p.Annotations()), Type: b.typeRef(p.TypeRef()), Name: b.ident(p.Name())}
		if d := p.Direction(); d != nil {
			switch {
			case d.IN() != nil:
				param.Dir = DirIn
			case d.OUT() != nil:
				param.Dir = DirOut
			default:
				param.Dir = DirInOut
			}
		}
		if p.Expression() != nil {
			param.Default = b.expr(p.Expression())
		}
		out = append(out, param)
	}
	return out
}

func (b *builder) ctorParams(c parser.IConstructorParametersContext) []*Param {
	if c == nil {
		return nil
	}
	return b.params(c.ParameterList())
}

func (b *builder) constDecl(c parser.IConstantDeclarationContext) *ConstDecl {
	return &ConstDecl{At: b.at(c), Annos: b.annotations(c.Annotations()), Type: b.typeRef(c.TypeRef()),
		Name: b.ident(c.Name()), Value: b.expr(c.Expression())}
}

func (b *builder) varDecl(c parser.IVariableDeclarationContext) *VarDecl {
	v := &VarDecl{At: b.at(c), Annos: b.annotations(c.Annotations()), Type: b.typeRef(c.TypeRef()), Name: b.ident(c.Name())}
	if c.Expression() != nil {
		v.Init = b.expr(c.Expression())
	}
	return v
}

func (b *builder) instance(c parser.IInstantiationContext) *Instance {
	inst := &Instance{At: b.at(c), Annos: b.annotations(c.Annotations()), Type: b.typeRef(c.TypeRef()),
		Args: b.args(c.ArgumentList()), Name: b.ident(c.Name())}
	if c.Expression() != nil {
		inst.Size = b.expr(c.Expression())
	}
	if init := c.ObjectInitializer(); init != nil {
		inst.HasInit = true
		for _, od := range init.AllObjectDeclaration() {
			if od.FunctionDeclaration() != nil {
				inst.Init = append(inst.Init, b.funcDecl(od.FunctionDeclaration()))
			} else {
				inst.Init = append(inst.Init, b.instance(od.Instantiation()))
			}
		}
	}
	return inst
}

func (b *builder) funcProto(c parser.IFunctionPrototypeContext, annos Annotations) *FuncProto {
	return &FuncProto{At: b.at(c), Annos: annos, Return: b.typeOrVoid(c.TypeOrVoid()), Name: b.ident(c.Name()),
		TypeParams: b.typeParams(c.TypeParameters()), Params: b.params(c.ParameterList())}
}

func (b *builder) funcDecl(c parser.IFunctionDeclarationContext) *FuncDecl {
	return &FuncDecl{At: b.at(c), Proto: b.funcProto(c.FunctionPrototype(), b.annotations(c.Annotations())),
		Body: b.block(c.BlockStatement())}
}

func (b *builder) externDecl(c parser.IExternDeclarationContext) *ExternDecl {
	d := &ExternDecl{At: b.at(c), Annos: b.annotations(c.Annotations())}
	if fp := c.FunctionPrototype(); fp != nil {
		d.Func = b.funcProto(fp, d.Annos)
		return d
	}
	d.Name = b.ident(c.NonTypeNameOrType().Name())
	d.TypeParams = b.typeParams(c.TypeParameters())
	for _, m := range c.AllMethodPrototype() {
		annos := b.annotations(m.Annotations())
		if m.TYPE_IDENTIFIER() != nil {
			d.Methods = append(d.Methods, &FuncProto{At: b.at(m), Annos: annos, Name: b.identTok(m.TYPE_IDENTIFIER()),
				Params: b.params(m.ParameterList()), Constructor: true})
			continue
		}
		p := b.funcProto(m.FunctionPrototype(), annos)
		p.Abstract = m.ABSTRACT() != nil
		d.Methods = append(d.Methods, p)
	}
	return d
}

func (b *builder) actionDecl(c parser.IActionDeclarationContext) *ActionDecl {
	return &ActionDecl{At: b.at(c), Annos: b.annotations(c.Annotations()), Name: b.ident(c.Name()),
		Params: b.params(c.ParameterList()), Body: b.block(c.BlockStatement())}
}

func (b *builder) parserType(c parser.IParserTypeDeclarationContext) *ParserDecl {
	return &ParserDecl{At: b.at(c), Annos: b.annotations(c.Annotations()), Name: b.ident(c.Name()),
		TypeParams: b.typeParams(c.TypeParameters()), Params: b.params(c.ParameterList())}
}

func (b *builder) parserDecl(c parser.IParserDeclarationContext) *ParserDecl {
	p := b.parserType(c.ParserTypeDeclaration())
	p.At = b.at(c)
	p.HasBody = true
	p.CtorParams = b.ctorParams(c.ConstructorParameters())
	for _, l := range c.AllParserLocalElement() {
		switch {
		case l.ConstantDeclaration() != nil:
			p.Locals = append(p.Locals, b.constDecl(l.ConstantDeclaration()))
		case l.Instantiation() != nil:
			p.Locals = append(p.Locals, b.instance(l.Instantiation()))
		case l.VariableDeclaration() != nil:
			p.Locals = append(p.Locals, b.varDecl(l.VariableDeclaration()))
		case l.ValueSetDeclaration() != nil:
			v := l.ValueSetDeclaration()
			p.Locals = append(p.Locals, &ValueSetDecl{At: b.at(v), Annos: b.annotations(v.Annotations()),
				Elem: b.typeRef(v.TypeRef()), Size: b.expr(v.Expression()), Name: b.ident(v.Name())})
		}
	}
	for _, s := range c.AllParserState() {
		p.States = append(p.States, b.parserState(s))
	}
	return p
}

func (b *builder) parserState(c parser.IParserStateContext) *ParserState {
	s := &ParserState{At: b.at(c), Annos: b.annotations(c.Annotations()), Name: b.ident(c.Name())}
	for _, st := range c.AllParserStatement() {
		s.Body = append(s.Body, b.stmtOrDecl(st.StatementOrDeclaration()))
	}
	if t := c.TransitionStatement(); t != nil {
		tr := &Transition{At: b.at(t)}
		se := t.StateExpression()
		if se.Name() != nil {
			tr.Next = b.ident(se.Name())
		} else {
			tr.Select = b.selectExpr(se.SelectExpression())
		}
		s.Transition = tr
	}
	return s
}

func (b *builder) selectExpr(c parser.ISelectExpressionContext) *SelectExpr {
	s := &SelectExpr{At: b.at(c), Exprs: b.exprList(c.ExpressionList())}
	for _, sc := range c.AllSelectCase() {
		s.Cases = append(s.Cases, &SelectCase{At: b.at(sc), Keys: b.keyset(sc.KeysetExpression()), State: b.ident(sc.Name())})
	}
	return s
}

func (b *builder) keyset(c parser.IKeysetExpressionContext) []Expr {
	var out []Expr
	for _, s := range c.AllSimpleKeysetExpression() {
		out = append(out, b.simpleKeyset(s))
	}
	return out
}

func (b *builder) simpleKeyset(c parser.ISimpleKeysetExpressionContext) Expr {
	at := b.at(c)
	switch {
	case c.DEFAULT() != nil:
		return &DefaultExpr{At: at}
	case c.DONTCARE() != nil:
		return &DontCareExpr{At: at}
	case c.MASK() != nil:
		return &MaskExpr{At: at, Value: b.expr(c.Expression(0)), Mask: b.expr(c.Expression(1))}
	case c.RANGE() != nil:
		return &RangeExpr{At: at, Lo: b.expr(c.Expression(0)), Hi: b.expr(c.Expression(1))}
	}
	return b.expr(c.Expression(0))
}

func (b *builder) controlType(c parser.IControlTypeDeclarationContext) *ControlDecl {
	return &ControlDecl{At: b.at(c), Annos: b.annotations(c.Annotations()), Name: b.ident(c.Name()),
		TypeParams: b.typeParams(c.TypeParameters()), Params: b.params(c.ParameterList())}
}

func (b *builder) controlDecl(c parser.IControlDeclarationContext) *ControlDecl {
	d := b.controlType(c.ControlTypeDeclaration())
	d.At = b.at(c)
	d.CtorParams = b.ctorParams(c.ConstructorParameters())
	for _, l := range c.AllControlLocalDeclaration() {
		switch {
		case l.ConstantDeclaration() != nil:
			d.Locals = append(d.Locals, b.constDecl(l.ConstantDeclaration()))
		case l.ActionDeclaration() != nil:
			d.Locals = append(d.Locals, b.actionDecl(l.ActionDeclaration()))
		case l.TableDeclaration() != nil:
			d.Locals = append(d.Locals, b.tableDecl(l.TableDeclaration()))
		case l.Instantiation() != nil:
			d.Locals = append(d.Locals, b.instance(l.Instantiation()))
		case l.VariableDeclaration() != nil:
			d.Locals = append(d.Locals, b.varDecl(l.VariableDeclaration()))
		}
	}
	d.Apply = b.block(c.BlockStatement())
	return d
}

func (b *builder) tableDecl(c parser.ITableDeclarationContext) *TableDecl {
	t := &TableDecl{At: b.at(c), Annos: b.annotations(c.Annotations()), Name: b.ident(c.Name())}
	for _, p := range c.AllTableProperty() {
		t.Props = append(t.Props, b.tableProp(p))
	}
	return t
}

func (b *builder) tableProp(c parser.ITablePropertyContext) *TableProp {
	p := &TableProp{At: b.at(c), Annos: b.annotations(c.Annotations()), Const: c.CONST() != nil}
	switch {
	case c.KEY() != nil:
		p.Name = b.identTok(c.KEY())
		for _, k := range c.AllKeyElement() {
			p.Keys = append(p.Keys, &KeyElem{At: b.at(k), Annos: b.annotations(k.Annotations()),
				Expr: b.expr(k.Expression()), Match: b.ident(k.Name())})
		}
	case c.ACTIONS() != nil:
		p.Name = b.identTok(c.ACTIONS())
		for _, a := range c.AllActionRef() {
			p.Actions = append(p.Actions, b.actionRef(a))
		}
	case c.ENTRIES() != nil:
		p.Name = b.identTok(c.ENTRIES())
		for _, e := range c.AllEntry() {
			entry := &Entry{At: b.at(e), Annos: b.annotations(e.Annotations()), Keys: b.keyset(e.KeysetExpression()),
				Action: b.actionRef(e.ActionRef())}
			if e.PRIORITY() != nil {
				entry.Priority = b.expr(e.Expression())
			}
			p.Entries = append(p.Entries, entry)
		}
	default:
		n := c.NonTableKwName()
		p.Name = &Ident{At: b.at(n), Name: n.GetText()}
		p.Value = b.expr(c.Expression())
	}
	return p
}

func (b *builder) actionRef(c parser.IActionRefContext) *ActionRef {
	a := &ActionRef{At: b.at(c), Annos: b.annotations(c.Annotations()), Name: b.ident(c.Name()), Global: c.DOT() != nil}
	if c.LPAREN() != nil {
		a.HasArgs = true
		a.Args = b.args(c.ArgumentList())
	}
	return a
}

func (b *builder) typeDecl(c parser.ITypeDeclarationContext) Decl {
	switch {
	case c.DerivedTypeDeclaration() != nil:
		return b.derivedType(c.DerivedTypeDeclaration())
	case c.TypedefDeclaration() != nil:
		t := c.TypedefDeclaration()
		return &TypedefDecl{At: b.at(t), Annos: b.annotations(t.Annotations()), NewType: t.TYPE() != nil,
			Type: b.typeRef(t.TypeRef()), Name: b.ident(t.Name())}
	case c.ParserTypeDeclaration() != nil:
		return b.parserType(c.ParserTypeDeclaration())
	case c.ControlTypeDeclaration() != nil:
		return b.controlType(c.ControlTypeDeclaration())
	case c.PackageTypeDeclaration() != nil:
		p := c.PackageTypeDeclaration()
		return &PackageDecl{At: b.at(p), Annos: b.annotations(p.Annotations()), Name: b.ident(p.Name()),
			TypeParams: b.typeParams(p.TypeParameters()), Params: b.params(p.ParameterList())}
	}
	return nil
}

func (b *builder) derivedType(c parser.IDerivedTypeDeclarationContext) Decl {
	fields := func(fs []parser.IStructFieldContext) []*Field {
		var out []*Field
		for _, f := range fs {
			t := b.typeRef(f.TypeRef())
			if f.Expression() != nil {
				t = &StackTypeExpr{At: b.at(f), Elem: t, Size: b.expr(f.Expression())}
			}
			out = append(out, &Field{At: b.at(f), Annos: b.annotations(f.Annotations()), Type: t, Name: b.ident(f.Name())})
		}
		return out
	}
	switch {
	case c.HeaderTypeDeclaration() != nil:
		h := c.HeaderTypeDeclaration()
		return &StructDecl{At: b.at(h), Annos: b.annotations(h.Annotations()), Kind: KindHeader, Name: b.ident(h.Name()),
			TypeParams: b.typeParams(h.TypeParameters()), Fields: fields(h.AllStructField())}
	case c.HeaderUnionDeclaration() != nil:
		h := c.HeaderUnionDeclaration()
		return &StructDecl{At: b.at(h), Annos: b.annotations(h.Annotations()), Kind: KindHeaderUnion, Name: b.ident(h.Name()),
			TypeParams: b.typeParams(h.TypeParameters()), Fields: fields(h.AllStructField())}
	case c.StructTypeDeclaration() != nil:
		s := c.StructTypeDeclaration()
		return &StructDecl{At: b.at(s), Annos: b.annotations(s.Annotations()), Kind: KindStruct, Name: b.ident(s.Name()),
			TypeParams: b.typeParams(s.TypeParameters()), Fields: fields(s.AllStructField())}
	case c.EnumDeclaration() != nil:
		e := c.EnumDeclaration()
		names := e.AllName()
		d := &EnumDecl{At: b.at(e), Annos: b.annotations(e.Annotations())}
		if e.TypeRef() != nil {
			d.Underlying = b.typeRef(e.TypeRef())
			d.Name = b.ident(names[0])
			for _, si := range e.AllSpecifiedIdentifier() {
				d.Members = append(d.Members, &EnumMember{Name: b.ident(si.Name()), Value: b.expr(si.Expression())})
			}
			return d
		}
		d.Name = b.ident(names[0])
		for _, n := range names[1:] {
			d.Members = append(d.Members, &EnumMember{Name: b.ident(n)})
		}
		return d
	}
	return nil
}

// ------------------------------------------------------------------ statements

func (b *builder) block(c parser.IBlockStatementContext) *BlockStmt {
	blk := &BlockStmt{At: b.at(c), Annos: b.annotations(c.Annotations())}
	for _, s := range c.AllStatementOrDeclaration() {
		blk.Stmts = append(blk.Stmts, b.stmtOrDecl(s))
	}
	return blk
}

func (b *builder) stmtOrDecl(c parser.IStatementOrDeclarationContext) Stmt {
	switch {
	case c.VariableDeclaration() != nil:
		return &DeclStmt{At: b.at(c), Decl: b.varDecl(c.VariableDeclaration())}
	case c.ConstantDeclaration() != nil:
		return &DeclStmt{At: b.at(c), Decl: b.constDecl(c.ConstantDeclaration())}
	case c.Instantiation() != nil:
		return &DeclStmt{At: b.at(c), Decl: b.instance(c.Instantiation())}
	}
	return b.stmt(c.Statement())
}

func (b *builder) stmt(c parser.IStatementContext) Stmt {
	if s, ok := b.built[c]; ok {
		delete(b.built, c)
		return s
	}
	at := b.at(c)
	switch {
	case c.AssignmentStatement() != nil:
		a := c.AssignmentStatement()
		return b.assign(at, a.Expression(0), a.AssignOp(), a.Expression(1))
	case c.CallStatement() != nil:
		return b.exprStmt(at, b.expr(c.CallStatement().Expression()))
	case c.ConditionalStatement() != nil:
		cs := c.ConditionalStatement()
		s := &IfStmt{At: at, Cond: b.expr(cs.Expression()), Then: b.stmt(cs.Statement(0))}
		if cs.ELSE() != nil {
			s.Else = b.stmt(cs.Statement(1))
		}
		return s
	case c.NopStatement() != nil:
		return &EmptyStmt{At: at}
	case c.BlockStatement() != nil:
		return b.block(c.BlockStatement())
	case c.ExitStatement() != nil:
		return &ExitStmt{At: at}
	case c.ReturnStatement() != nil:
		r := &ReturnStmt{At: at}
		if e := c.ReturnStatement().Expression(); e != nil {
			r.Value = b.expr(e)
		}
		return r
	case c.SwitchStatement() != nil:
		return b.switchStmt(c.SwitchStatement())
	case c.ForStatement() != nil:
		return b.forStmt(c.ForStatement())
	case c.BreakStatement() != nil:
		return &BreakStmt{At: at}
	case c.ContinueStatement() != nil:
		return &ContinueStmt{At: at}
	}
	return &EmptyStmt{At: at}
}

func (b *builder) exprStmt(at At, x Expr) Stmt {
	if call, ok := x.(*CallExpr); ok {
		return &CallStmt{At: at, Call: call}
	}
	return &ExprStmt{At: at, X: x}
}

func (b *builder) assign(at At, lhs parser.IExpressionContext, op parser.IAssignOpContext, rhs parser.IExpressionContext) *AssignStmt {
	s := &AssignStmt{At: at, LHS: b.expr(lhs), RHS: b.expr(rhs)}
	switch {
	case op.ASSIGN() != nil: // a plain =: no operator
	case op.GT() != nil:
		b.checkAdjacent(op.GT().GetSymbol(), op.GE().GetSymbol(), ">>=")
		s.Op = ir.Shr
	default:
		s.Op = b.op(at, strings.TrimSuffix(op.GetText(), "="), 2)
	}
	return s
}

// op maps an operator token's text to its operator. A miss is an operator
// the grammar parses and ir has no row for.
func (b *builder) op(at At, text string, operands int) ir.Op {
	op, ok := ir.LookupOp(text, operands)
	if !ok {
		b.diags.Errorf(at, diag.Unsupported, "operator %s is not supported", text)
	}
	return op
}

// checkAdjacent reports `> >` written with a space where >> was meant: the
// lexer splits >> so that nested type arguments close, and the parser joins
// the halves back only when they touch.
func (b *builder) checkAdjacent(first, second antlr.Token, op string) {
	if first.GetLine() != second.GetLine() || first.GetColumn()+1 != second.GetColumn() {
		b.diags.Errorf(b.src.span(first, second), diag.SyntaxError, "syntax error: %s must be written without spaces", op)
	}
}

func (b *builder) switchStmt(c parser.ISwitchStatementContext) *SwitchStmt {
	s := &SwitchStmt{At: b.at(c), X: b.expr(c.Expression())}
	for _, sc := range c.AllSwitchCase() {
		cs := &SwitchCase{At: b.at(sc)}
		if l := sc.SwitchLabel(); l.DEFAULT() == nil {
			cs.Label = b.expr(l.Expression())
		}
		if sc.BlockStatement() != nil {
			cs.Body = b.block(sc.BlockStatement())
		}
		s.Cases = append(s.Cases, cs)
	}
	return s
}

func (b *builder) forStmt(c parser.IForStatementContext) Stmt {
	at := b.at(c)
	annos := b.annotations(c.Annotations())
	if c.IN() != nil {
		coll := c.ForCollection()
		var r Expr
		if coll.RANGE() != nil {
			r = &RangeExpr{At: b.at(coll), Lo: b.expr(coll.Expression(0)), Hi: b.expr(coll.Expression(1))}
		} else {
			r = b.expr(coll.Expression(0))
		}
		return &ForInStmt{At: at, Annos: annos, Type: b.typeRef(c.TypeRef()), Name: b.ident(c.Name()),
			Range: r, Body: b.stmt(c.Statement())}
	}
	s := &ForStmt{At: at, Annos: annos, Body: b.stmt(c.Statement())}
	if init := c.ForInit(); init != nil {
		for _, it := range init.AllForInitItem() {
			iat := b.at(it)
			switch {
			case it.TypeRef() != nil:
				s.Init = append(s.Init, &DeclStmt{At: iat, Decl: &VarDecl{At: iat, Type: b.typeRef(it.TypeRef()),
					Name: b.ident(it.Name()), Init: b.expr(it.Expression(0))}})
			case it.AssignOp() != nil:
				s.Init = append(s.Init, b.assign(iat, it.Expression(0), it.AssignOp(), it.Expression(1)))
			default:
				s.Init = append(s.Init, b.exprStmt(iat, b.expr(it.Expression(0))))
			}
		}
	}
	if c.Expression() != nil {
		s.Cond = b.expr(c.Expression())
	}
	if up := c.ForUpdate(); up != nil {
		for _, it := range up.AllForUpdateItem() {
			iat := b.at(it)
			if it.AssignOp() != nil {
				s.Update = append(s.Update, b.assign(iat, it.Expression(0), it.AssignOp(), it.Expression(1)))
			} else {
				s.Update = append(s.Update, b.exprStmt(iat, b.expr(it.Expression(0))))
			}
		}
	}
	return s
}

// ------------------------------------------------------------------ expressions

func (b *builder) exprList(c parser.IExpressionListContext) []Expr {
	var out []Expr
	for _, e := range c.AllExpression() {
		out = append(out, b.expr(e))
	}
	return out
}

func (b *builder) args(c parser.IArgumentListContext) []*Arg {
	var out []*Arg
	for _, a := range c.AllArgument() {
		arg := &Arg{At: b.at(a)}
		if a.Name() != nil {
			arg.Name = b.ident(a.Name())
		}
		if a.Expression() != nil {
			arg.Value = b.expr(a.Expression())
		}
		out = append(out, arg)
	}
	return out
}

func (b *builder) expr(c parser.IExpressionContext) Expr {
	at := b.at(c)
	switch e := c.(type) {
	case *parser.PrimaryExprContext:
		return b.primary(e.Primary())
	case *parser.MemberExprContext:
		return &MemberExpr{At: at, X: b.expr(e.Expression()), Name: b.ident(e.Name())}
	case *parser.IndexExprContext:
		return &IndexExpr{At: at, X: b.expr(e.Expression(0)), Index: b.expr(e.Expression(1))}
	case *parser.SliceExprContext:
		return &SliceExpr{At: at, X: b.expr(e.Expression(0)), Hi: b.expr(e.Expression(1)), Lo: b.expr(e.Expression(2))}
	case *parser.PlusSliceExprContext:
		return &PlusSliceExpr{At: at, X: b.expr(e.Expression(0)), Lo: b.expr(e.Expression(1)), Width: b.expr(e.Expression(2))}
	case *parser.CallExprContext:
		call := &CallExpr{At: at, Fn: b.expr(e.Expression()), Args: b.args(e.ArgumentList())}
		if e.TypeArgumentList() != nil {
			call.TypeArgs = b.typeArgs(e.TypeArgumentList())
		}
		return call
	case *parser.UnaryExprContext:
		return &UnaryExpr{At: at, Op: b.op(at, e.GetOp().GetText(), 1), X: b.expr(e.Expression())}
	case *parser.CastExprContext:
		return &CastExpr{At: at, Type: b.typeRef(e.TypeRef()), X: b.expr(e.Expression())}
	case *parser.BinaryExprContext:
		return &BinaryExpr{At: at, Op: b.op(at, e.GetOp().GetText(), 2), X: b.expr(e.Expression(0)), Y: b.expr(e.Expression(1))}
	case *parser.ShiftExprContext:
		op := ir.Shl
		if gts := e.AllGT(); len(gts) == 2 {
			b.checkAdjacent(gts[0].GetSymbol(), gts[1].GetSymbol(), ir.Shr.String())
			op = ir.Shr
		}
		return &BinaryExpr{At: at, Op: op, X: b.expr(e.Expression(0)), Y: b.expr(e.Expression(1))}
	case *parser.CondExprContext:
		return &CondExpr{At: at, Cond: b.expr(e.Expression(0)), Then: b.expr(e.Expression(1)), Else: b.expr(e.Expression(2))}
	}
	b.diags.Errorf(at, diag.SyntaxError, "syntax error: unexpected expression")
	return &BoolLit{At: at}
}

func (b *builder) primary(c parser.IPrimaryContext) Expr {
	at := b.at(c)
	switch p := c.(type) {
	case *parser.IntLitContext:
		return b.intLit(p.INTEGER().GetSymbol())
	case *parser.TrueLitContext:
		return &BoolLit{At: at, Value: true}
	case *parser.FalseLitContext:
		return &BoolLit{At: at, Value: false}
	case *parser.StringLitContext:
		return &StringLit{At: at, Value: unquote(p.STRING_LITERAL().GetText())}
	case *parser.ThisExprContext:
		return &ThisExpr{At: at}
	case *parser.NameExprContext:
		return &NameExpr{At: at, Name: p.NonTypeName().GetText(), Global: p.DOT() != nil}
	case *parser.TypeMemberExprContext:
		tn := p.TypeName()
		x := &NameExpr{At: b.at(tn), Name: tn.TYPE_IDENTIFIER().GetText(), Global: tn.DOT() != nil, IsType: true}
		if p.TypeArgumentList() != nil {
			x.TypeArgs = b.typeArgs(p.TypeArgumentList())
		}
		return &MemberExpr{At: at, X: x, Name: b.ident(p.Name())}
	case *parser.ConstructorExprContext:
		tn := p.TypeName()
		x := &NameExpr{At: b.at(tn), Name: tn.TYPE_IDENTIFIER().GetText(), Global: tn.DOT() != nil, IsType: true}
		call := &CallExpr{At: at, Fn: x, Args: b.args(p.ArgumentList())}
		if p.TypeArgumentList() != nil {
			call.TypeArgs = b.typeArgs(p.TypeArgumentList())
		}
		return call
	case *parser.ErrorExprContext:
		return &NameExpr{At: at, Name: "error", IsType: true}
	case *parser.InvalidExprContext:
		return &InvalidExpr{At: at}
	case *parser.DotsExprContext:
		return &DotsExpr{At: at}
	case *parser.ListExprContext:
		return &ListExpr{At: at, Elems: b.exprList(p.ExpressionList())}
	case *parser.StructExprContext:
		s := &StructExpr{At: at, Dots: p.DOTS() != nil}
		for _, kv := range p.AllKvPair() {
			s.Fields = append(s.Fields, b.kvPair(kv))
		}
		return s
	case *parser.ParenExprContext:
		return b.expr(p.Expression())
	}
	b.diags.Errorf(at, diag.SyntaxError, "syntax error: unexpected expression")
	return &BoolLit{At: at}
}

// intLit parses an integer literal: [width(w|s)] [0x|0b|0o|0d] digits, with
// underscores allowed between digits (P4-16 §6.4.3.3).
func (b *builder) intLit(tok antlr.Token) *IntLit {
	text := tok.GetText()
	lit := &IntLit{At: At{b.src.tokenSpan(tok)}, Text: text, Value: new(big.Int)}
	bad := func(format string, args ...any) *IntLit {
		b.diags.Errorf(lit, diag.BadInteger, format, args...)
		return lit
	}
	rest := text
	if i := strings.IndexAny(rest, "ws"); i > 0 && isDecimal(rest[:i]) {
		w, err := strconv.Atoi(rest[:i])
		if err != nil || w <= 0 || w > maxWidth {
			return bad("integer width %s is out of range (1 to %d)", rest[:i], maxWidth)
		}
		lit.Width, lit.Signed = w, rest[i] == 's'
		rest = rest[i+1:]
	}
	base, prefixed := 10, false
	if len(rest) > 2 && rest[0] == '0' {
		switch rest[1] {
		case 'x', 'X':
			base = 16
		case 'b', 'B':
			base = 2
		case 'o', 'O':
			base = 8
		case 'd', 'D':
			base = 10
		}
		if strings.ContainsRune("xXbBoOdD", rune(rest[1])) {
			rest = rest[2:]
			prefixed = true
		}
	}
	// An underscore may follow a base prefix (8w0b_1010), not start digits.
	digits := strings.ReplaceAll(rest, "_", "")
	if digits == "" || !prefixed && strings.HasPrefix(rest, "_") {
		return bad("malformed integer literal %q", text)
	}
	if _, ok := lit.Value.SetString(digits, base); !ok {
		return bad("malformed integer literal %q: bad digit for base %d", text, base)
	}
	return lit
}

// maxWidth is the widest bit<W> p4hls accepts. P4 sets no limit; targets
// hold far less, and a bound keeps constant folding cheap.
const maxWidth = 2048

func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// unquote strips the quotes of a string literal and resolves its escapes;
// P4 strings have C's simple escapes.
func unquote(s string) string {
	s = strings.TrimPrefix(s, `"`)
	s = strings.TrimSuffix(s, `"`)
	if !strings.Contains(s, `\`) {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			out.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			out.WriteByte('\n')
		case 't':
			out.WriteByte('\t')
		case 'r':
			out.WriteByte('\r')
		default:
			out.WriteByte(s[i])
		}
	}
	return out.String()
}

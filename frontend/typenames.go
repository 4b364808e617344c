package frontend

import (
	"github.com/antlr4-go/antlr/v4"

	"github.com/p4hls/p4hls/frontend/parser"
)

// markTypeNames retypes IDENTIFIER tokens that name types as TYPE_IDENTIFIER.
//
// P4-16's grammar is ambiguous without knowing which names are types: is
// `(x) - y` a cast or a subtraction, is `T(a) b;` an instantiation? The
// specification resolves this in the lexer with the symbol table. Here a
// pre-scan over the whole translation unit collects every name a
// declaration introduces as a type (header, struct, header_union, enum,
// typedef, type, extern object, parser, control, package, and type
// parameters) and retypes every use of those names. Scoping is ignored: a
// variable may not share its name with a type, which real programs respect
// (and the grammar still accepts a type-lexed name wherever a plain name may
// stand, so only a cast of such a name could be misread).
func markTypeNames(toks []antlr.Token) {
	names := map[string]bool{}
	typ := func(i int) int {
		if i < 0 || i >= len(toks) {
			return antlr.TokenEOF
		}
		return toks[i].GetTokenType()
	}
	ident := func(i int) bool { return typ(i) == parser.P4LexerIDENTIFIER }
	// typeParams marks the names in <A, B> starting at toks[i] == '<'.
	typeParams := func(i int) {
		if typ(i) != parser.P4LexerLT {
			return
		}
		for j := i + 1; ident(j); j += 2 {
			names[toks[j].GetText()] = true
			if typ(j+1) != parser.P4LexerCOMMA {
				return
			}
		}
	}
	for i, t := range toks {
		switch t.GetTokenType() {
		case parser.P4LexerHEADER, parser.P4LexerSTRUCT, parser.P4LexerHEADER_UNION,
			parser.P4LexerPARSER, parser.P4LexerCONTROL, parser.P4LexerPACKAGE:
			if ident(i + 1) {
				names[toks[i+1].GetText()] = true
				typeParams(i + 2)
			}
		case parser.P4LexerEXTERN:
			// extern Name { or extern Name<T> {: an object type. A function
			// (extern T f<U>(...);) is handled by the generic-function case.
			if ident(i+1) && (typ(i+2) == parser.P4LexerLBRACE ||
				typ(i+2) == parser.P4LexerLT && closesBefore(toks, i+2, parser.P4LexerLBRACE)) {
				names[toks[i+1].GetText()] = true
				typeParams(i + 2)
			}
		case parser.P4LexerENUM:
			// enum Name { or enum bit<8> Name {: the name is just before {.
			for j := i + 1; j < len(toks) && j < i+64; j++ {
				if typ(j) == parser.P4LexerLBRACE {
					if ident(j - 1) {
						names[toks[j-1].GetText()] = true
					}
					break
				}
			}
		case parser.P4LexerTYPEDEF, parser.P4LexerTYPE:
			if !startsType(typ(i+1)) || t.GetTokenType() == parser.P4LexerTYPE && !declarationStart(typ(i-1)) {
				continue // `type` used as a name: hdr.type, type = 1
			}
			// The name is the last token before the ;, after the type,
			// which may be a whole struct declaration (typedef struct S {
			// ... } T;).
			depth, braces := 0, 0
			for j := i + 1; j < len(toks); j++ {
				switch typ(j) {
				case parser.P4LexerLT, parser.P4LexerLPAREN, parser.P4LexerLBRACKET:
					depth++
				case parser.P4LexerGT, parser.P4LexerRPAREN, parser.P4LexerRBRACKET:
					depth--
				case parser.P4LexerLBRACE:
					braces++
				case parser.P4LexerRBRACE:
					braces--
				}
				if braces < 0 || typ(j) == antlr.TokenEOF || typ(j) == parser.P4LexerSEMI && braces == 0 {
					if depth <= 0 && braces == 0 && ident(j-1) {
						names[toks[j-1].GetText()] = true
					}
					break
				}
			}
		case parser.P4LexerLT:
			// A generic function or method: RET name<T, U>(. The token before
			// the name must end a type, so f<T>(x) in an expression is left
			// alone (its T is a type already).
			if i >= 2 && ident(i-1) && endsType(typ(i-2)) && closesBefore(toks, i, parser.P4LexerLPAREN) {
				typeParams(i)
			}
		}
	}
	retype(toks, names)
}

// retype marks the uses of type names as TYPE_IDENTIFIER, except inside a
// block that declares a variable, constant or parameter of that name
// (bit<16> counter; counter = 0;): there the name is the value's, as the
// specification's scoped lexer has it. Only blocks count, not the top
// level, where types and values share no names in practice.
func retype(toks []antlr.Token, names map[string]bool) {
	typ := func(i int) int {
		if i < 0 || i >= len(toks) {
			return antlr.TokenEOF
		}
		return toks[i].GetTokenType()
	}
	var scopes []map[string]bool // the open blocks' value names
	pending := map[string]bool{} // parameters, which belong to the next block
	parens := 0
	shadowed := func(name string) bool {
		for _, s := range scopes {
			if s[name] {
				return true
			}
		}
		return false
	}
	for i, t := range toks {
		switch typ(i) {
		case parser.P4LexerLBRACE:
			if fieldsFollow(toks, i) {
				scopes = append(scopes, nil) // fields are no values of the block
			} else {
				scopes = append(scopes, pending)
			}
			pending = map[string]bool{}
		case parser.P4LexerRBRACE:
			if len(scopes) > 0 {
				scopes = scopes[:len(scopes)-1]
			}
		case parser.P4LexerLPAREN:
			parens++
		case parser.P4LexerRPAREN:
			parens = max(parens-1, 0)
		case parser.P4LexerSEMI:
			if parens == 0 && len(scopes) == 0 {
				pending = map[string]bool{} // a type declaration's parameters end here
			}
		case parser.P4LexerIDENTIFIER:
			name := t.GetText()
			if declaresValue(typ(i-1), typ(i+1)) && (len(scopes) > 0 || parens > 0) {
				if parens > 0 {
					pending[name] = true
				} else if top := scopes[len(scopes)-1]; top != nil {
					top[name] = true
				}
			}
			if names[name] && !shadowed(name) && !(parens > 0 && pending[name]) {
				toks[i] = &typedToken{t, parser.P4LexerTYPE_IDENTIFIER}
			}
		}
	}
}

// fieldsFollow reports whether the { at toks[i] opens the fields of a
// struct, header or header union (struct S<T> {).
func fieldsFollow(toks []antlr.Token, i int) bool {
	j := i - 1
	if j >= 0 && toks[j].GetTokenType() == parser.P4LexerGT {
		for j >= 0 && toks[j].GetTokenType() != parser.P4LexerLT {
			j--
		}
		j--
	}
	if j < 1 {
		return false
	}
	switch toks[j-1].GetTokenType() {
	case parser.P4LexerSTRUCT, parser.P4LexerHEADER, parser.P4LexerHEADER_UNION:
		return true
	}
	return false
}

// declaresValue reports whether a name between tokens of types prev and
// next is declared as a value: it follows a type (bit<8> x, T x, H[2] x)
// and ends the declaration's head (x;, x =, x, and x)).
func declaresValue(prev, next int) bool {
	if !endsType(prev) || prev == parser.P4LexerIDENTIFIER && next == parser.P4LexerRPAREN {
		return false
	}
	switch next {
	case parser.P4LexerSEMI, parser.P4LexerASSIGN, parser.P4LexerCOMMA, parser.P4LexerRPAREN:
		return true
	}
	return false
}

// closesBefore reports whether the <...> opening at toks[i] is a plain list
// of names followed by a token of type next.
func closesBefore(toks []antlr.Token, i, next int) bool {
	for j := i + 1; j < len(toks) && j < i+64; j++ {
		switch toks[j].GetTokenType() {
		case parser.P4LexerIDENTIFIER, parser.P4LexerCOMMA:
		case parser.P4LexerGT:
			return j+1 < len(toks) && toks[j+1].GetTokenType() == next
		default:
			return false
		}
	}
	return false
}

// declarationStart reports whether a declaration may start after a token
// of type prev: after another declaration, a brace, or an annotation
// (@name, @name(...) or @name[...]).
func declarationStart(prev int) bool {
	switch prev {
	case antlr.TokenEOF, parser.P4LexerSEMI, parser.P4LexerRBRACE, parser.P4LexerRPAREN, parser.P4LexerLBRACE,
		parser.P4LexerIDENTIFIER, parser.P4LexerRBRACKET:
		return true
	}
	return false
}

func startsType(next int) bool {
	switch next {
	case parser.P4LexerBIT, parser.P4LexerINT, parser.P4LexerVARBIT, parser.P4LexerBOOL, parser.P4LexerERROR,
		parser.P4LexerSTRING, parser.P4LexerTUPLE, parser.P4LexerLIST, parser.P4LexerIDENTIFIER, parser.P4LexerDOT,
		parser.P4LexerMATCH_KIND, parser.P4LexerSTRUCT, parser.P4LexerHEADER, parser.P4LexerHEADER_UNION, parser.P4LexerENUM:
		return true
	}
	return false
}

func endsType(prev int) bool {
	switch prev {
	case parser.P4LexerIDENTIFIER, parser.P4LexerTYPE_IDENTIFIER, parser.P4LexerGT, parser.P4LexerRBRACKET,
		parser.P4LexerVOID, parser.P4LexerBOOL, parser.P4LexerERROR, parser.P4LexerSTRING, parser.P4LexerBIT,
		parser.P4LexerINT, parser.P4LexerVARBIT:
		return true
	}
	return false
}

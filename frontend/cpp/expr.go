package cpp

import (
	"strconv"
	"strings"

	"github.com/p4hls/p4hls/diag"
)

// evalCondition evaluates the expression of #if or #elif: `defined NAME`
// and `defined(NAME)` first, then macro expansion, then any identifier left
// is 0, as in C. A malformed expression is reported and counts as false.
func (p *state) evalCondition(span diag.Span, text string) bool {
	ts := replaceDefined(tokenize(text), p.macros)
	ts = p.expand(ts, span)
	var toks []string
	for _, t := range ts {
		switch t.kind {
		case tokSpace, tokComment, tokNewline:
		case tokIdent:
			if t.text == "true" {
				toks = append(toks, "1")
			} else {
				toks = append(toks, "0")
			}
		default:
			toks = append(toks, t.text)
		}
	}
	toks = joinOperators(toks)
	e := &condEval{toks: toks}
	v := e.ternary()
	if e.err != "" || e.pos != len(e.toks) {
		msg := e.err
		if msg == "" {
			msg = "unexpected " + strconv.Quote(e.toks[e.pos])
		}
		p.diags.Errorf(span, diag.BadDirective, "bad #if expression: %s", msg)
		return false
	}
	return v != 0
}

func replaceDefined(ts []token, macros map[string]*macro) []token {
	var out []token
	for i := 0; i < len(ts); i++ {
		if ts[i].kind != tokIdent || ts[i].text != "defined" {
			out = append(out, ts[i])
			continue
		}
		j := nextNonSpace(ts, i)
		paren := j >= 0 && ts[j].text == "("
		if paren {
			j = nextNonSpace(ts, j)
		}
		if j < 0 || ts[j].kind != tokIdent {
			out = append(out, ts[i])
			continue
		}
		_, ok := macros[ts[j].text]
		val := "0"
		if ok {
			val = "1"
		}
		out = append(out, token{kind: tokNumber, text: val})
		i = j
		if paren {
			if k := nextNonSpace(ts, j); k >= 0 && ts[k].text == ")" {
				i = k
			}
		}
	}
	return out
}

// joinOperators merges one-byte punctuation into the two-byte operators of
// #if expressions.
func joinOperators(toks []string) []string {
	var out []string
	for i := 0; i < len(toks); i++ {
		if i+1 < len(toks) {
			two := toks[i] + toks[i+1]
			switch two {
			case "&&", "||", "==", "!=", "<=", ">=", "<<", ">>":
				out = append(out, two)
				i++
				continue
			}
		}
		out = append(out, toks[i])
	}
	return out
}

// condEval is a precedence-climbing evaluator over int64, C's rules.
type condEval struct {
	toks []string
	pos  int
	err  string
}

func (e *condEval) peek() string {
	if e.pos < len(e.toks) {
		return e.toks[e.pos]
	}
	return ""
}

func (e *condEval) fail(msg string) int64 {
	if e.err == "" {
		e.err = msg
	}
	e.pos = len(e.toks)
	return 0
}

var binaryPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8,
	"+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

func (e *condEval) ternary() int64 {
	c := e.binary(1)
	if e.peek() != "?" {
		return c
	}
	e.pos++
	a := e.ternary()
	if e.peek() != ":" {
		return e.fail("missing : in ?:")
	}
	e.pos++
	b := e.ternary()
	if c != 0 {
		return a
	}
	return b
}

func (e *condEval) binary(min int) int64 {
	l := e.unary()
	for {
		op := e.peek()
		prec, ok := binaryPrec[op]
		if !ok || prec < min {
			return l
		}
		e.pos++
		r := e.binary(prec + 1)
		l = e.apply(op, l, r)
	}
}

func (e *condEval) apply(op string, l, r int64) int64 {
	b := func(x bool) int64 {
		if x {
			return 1
		}
		return 0
	}
	switch op {
	case "||":
		return b(l != 0 || r != 0)
	case "&&":
		return b(l != 0 && r != 0)
	case "|":
		return l | r
	case "^":
		return l ^ r
	case "&":
		return l & r
	case "==":
		return b(l == r)
	case "!=":
		return b(l != r)
	case "<":
		return b(l < r)
	case ">":
		return b(l > r)
	case "<=":
		return b(l <= r)
	case ">=":
		return b(l >= r)
	case "<<":
		return l << uint64(r&63)
	case ">>":
		return l >> uint64(r&63)
	case "+":
		return l + r
	case "-":
		return l - r
	case "*":
		return l * r
	case "/", "%":
		if r == 0 {
			return e.fail("division by zero")
		}
		if op == "/" {
			return l / r
		}
		return l % r
	}
	return e.fail("unknown operator " + op)
}

func (e *condEval) unary() int64 {
	switch t := e.peek(); t {
	case "":
		return e.fail("expression ends early")
	case "!":
		e.pos++
		if e.unary() == 0 {
			return 1
		}
		return 0
	case "-":
		e.pos++
		return -e.unary()
	case "+":
		e.pos++
		return e.unary()
	case "~":
		e.pos++
		return ^e.unary()
	case "(":
		e.pos++
		v := e.ternary()
		if e.peek() != ")" {
			return e.fail("missing )")
		}
		e.pos++
		return v
	default:
		e.pos++
		s := strings.TrimRight(strings.ToLower(t), "ul")
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return e.fail("not a number: " + strconv.Quote(t))
		}
		return v
	}
}

package diag

// Code names the kind of a diagnostic. Codes are stable: new ones are only
// ever appended, never renumbered, so tools and tests may rely on them.
// Each comment shows a small P4 program that draws the diagnostic.
//
//go:generate go tool stringer -type=Code
type Code int

const (
	// Unknown is the zero Code; no diagnostic should carry it.
	Unknown Code = iota

	// TooManyErrors ends a list that reached MaxErrors.
	TooManyErrors

	// InputTooLarge: a source file larger than the frontend accepts.
	InputTooLarge

	// BadCharacter: a byte that starts no token.
	//	bit<8> x = 1 $ 2;
	BadCharacter

	// UnterminatedComment: a block comment with no closing */.
	//	/* never closed
	UnterminatedComment

	// UnterminatedString: a string literal with no closing quote (strings may
	// span lines, so the next quote closes it).
	//	@name("x) table t { }
	UnterminatedString

	// BadInteger: an integer literal with a bad digit, width or base.
	//	bit<8> x = 8w0xZZ;
	BadInteger

	// SyntaxError: the token stream does not fit the grammar.
	//	control C() { apply { x = ; } }
	SyntaxError

	// NestingTooDeep: expressions or statements nested beyond the frontend's limit.
	NestingTooDeep

	// IncludeNotFound: an #include whose file is in no include directory.
	//	#include "nosuch.p4"
	IncludeNotFound

	// IncludeCycle: a file that includes itself, directly or not.
	IncludeCycle

	// BadDirective: a preprocessor directive that is malformed or unknown.
	//	#iff X
	BadDirective

	// UnbalancedConditional: #else, #elif or #endif without #if, or an #if
	// without #endif.
	UnbalancedConditional

	// MacroError: a macro used with the wrong number of arguments, or one
	// whose expansion does not end.
	MacroError

	// ErrorDirective: an #error directive was reached.
	ErrorDirective

	// UndeclaredName: a name with no declaration in scope.
	//	control C() { apply { x = 1; } }
	UndeclaredName

	// Redeclared: a name declared twice in one scope.
	//	const bit<8> a = 1; const bit<8> a = 2;
	Redeclared

	// NotAType: a name used as a type that denotes something else.
	//	const bit<8> a = 1; a x;
	NotAType

	// NotAValue: a name used as a value that denotes a type or declaration.
	NotAValue

	// TypeMismatch: an operand or assignment whose type does not fit.
	//	bool b = 8w1;
	TypeMismatch

	// WidthMismatch: operands of one operator with different bit widths.
	//	bit<8> a; bit<16> b; a = a + b;
	WidthMismatch

	// WrongArgumentCount: a call with too many or too few arguments.
	//	action a(bit<8> x) {} ... a();
	WrongArgumentCount

	// WrongDirection: an argument that cannot be passed to a parameter's
	// direction (a constant to an out parameter, say).
	WrongDirection

	// AssignToReadOnly: a write to an in parameter, a constant or an rvalue.
	//	action a(in bit<8> x) { x = 1; }
	AssignToReadOnly

	// MisplacedAtomic: @atomic on something that is not a block statement
	// inside an action or control.
	MisplacedAtomic

	// NotConstant: an expression that must be a compile-time constant and is not.
	//	bit<(x)> y;
	NotConstant

	// BadCast: a cast that P4-16 does not allow.
	//	bool b = (bool)8w2;
	BadCast

	// UnknownMember: a field, method or enum member that does not exist.
	//	hdr.eth.nosuch = 1;
	UnknownMember

	// NotCallable: a call of something that is not an action, function or method.
	NotCallable

	// BadWidth: a bit width out of range, or an integer that does not fit it.
	//	bit<0> x;
	BadWidth

	// Unsupported: a construct p4hls parses but does not implement.
	Unsupported

	// BadTable: a table property missing, duplicated or malformed.
	//	table t { key = { h.a : nosuchkind; } }
	BadTable

	// BadParser: a parser with a missing or unreachable state, or a bad select.
	//	state start { transition nowhere; }
	BadParser

	// MissingReturn: a function that can end without returning a value.
	MissingReturn

	// BadStatement: a statement where it cannot be (return outside a
	// function, break outside a loop, an expression that is not a call).
	//	apply { 1 + 2; }
	BadStatement

	// BadArchitecture: a program that misuses its architecture's package
	// (no main instance, wrong block kinds).
	BadArchitecture

	// EmptyProgram: a source file with no declarations of its own (a
	// warning: such a file is valid P4).
	EmptyProgram

	// DoesNotFit: a valid program the target cannot hold: a construct its
	// backend does not write, an action none of its ALUs implement, or a
	// limit no placement meets (a compile's error, after the frontend).
	DoesNotFit

	// AnalysisBounded: phase 1's guard analysis reached its bound of solver
	// queries, so past it dependencies and rewrites were decided
	// conservatively (a note: the compile goes on).
	AnalysisBounded

	// RewriteRejected: phase 1 rewrote if statements into tables and the
	// frontend rejected the result, a bug of p4hls; the statements the
	// rejected tables replaced stay as written, the other rewrites are
	// kept (a warning).
	RewriteRejected

	// AssertionFailed: a static_assert whose condition is false.
	//	const bool ok = static_assert(8 > 9, "too narrow");
	AssertionFailed

	// Deprecated: a use of a declaration annotated @deprecated (a
	// warning), as v1model's mark_to_drop() without an argument.
	Deprecated

	// WrapCostsStage: a sum or difference an @atomic action compares wraps
	// on some inputs, and no shallower mapping of the action is right on
	// those; the note names the precondition that rules the wrap out (a
	// note: the compile goes on).
	//	if (hdr.app.now - 10 > lu) { ... }   // assume(hdr.app.now >= 10);
	WrapCostsStage
)

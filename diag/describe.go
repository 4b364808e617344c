package diag

// Description says what a code's diagnostics are about, in a sentence:
// the doc comment of the code in codes.go without its example (a test
// keeps the two the same). Tools show it beside the code: the rules of a
// SARIF log, an editor's hover over a diagnostic. It is "" for Unknown
// and for a code out of range.
func (c Code) Description() string {
	switch c {
	case TooManyErrors:
		return "Ends a list that reached MaxErrors."
	case InputTooLarge:
		return "A source file larger than the frontend accepts."
	case BadCharacter:
		return "A byte that starts no token."
	case UnterminatedComment:
		return "A block comment with no closing */."
	case UnterminatedString:
		return "A string literal with no closing quote (strings may span lines, so the next quote closes it)."
	case BadInteger:
		return "An integer literal with a bad digit, width or base."
	case SyntaxError:
		return "The token stream does not fit the grammar."
	case NestingTooDeep:
		return "Expressions or statements nested beyond the frontend's limit."
	case IncludeNotFound:
		return "An #include whose file is in no include directory."
	case IncludeCycle:
		return "A file that includes itself, directly or not."
	case BadDirective:
		return "A preprocessor directive that is malformed or unknown."
	case UnbalancedConditional:
		return "#else, #elif or #endif without #if, or an #if without #endif."
	case MacroError:
		return "A macro used with the wrong number of arguments, or one whose expansion does not end."
	case ErrorDirective:
		return "An #error directive was reached."
	case UndeclaredName:
		return "A name with no declaration in scope."
	case Redeclared:
		return "A name declared twice in one scope."
	case NotAType:
		return "A name used as a type that denotes something else."
	case NotAValue:
		return "A name used as a value that denotes a type or declaration."
	case TypeMismatch:
		return "An operand or assignment whose type does not fit."
	case WidthMismatch:
		return "Operands of one operator with different bit widths."
	case WrongArgumentCount:
		return "A call with too many or too few arguments."
	case WrongDirection:
		return "An argument that cannot be passed to a parameter's direction (a constant to an out parameter, say)."
	case AssignToReadOnly:
		return "A write to an in parameter, a constant or an rvalue."
	case MisplacedAtomic:
		return "@atomic on something that is not a block statement inside an action or control."
	case NotConstant:
		return "An expression that must be a compile-time constant and is not."
	case BadCast:
		return "A cast that P4-16 does not allow."
	case UnknownMember:
		return "A field, method or enum member that does not exist."
	case NotCallable:
		return "A call of something that is not an action, function or method."
	case BadWidth:
		return "A bit width out of range, or an integer that does not fit it."
	case Unsupported:
		return "A construct p4hls parses but does not implement."
	case BadTable:
		return "A table property missing, duplicated or malformed."
	case BadParser:
		return "A parser with a missing or unreachable state, or a bad select."
	case MissingReturn:
		return "A function that can end without returning a value."
	case BadStatement:
		return "A statement where it cannot be (return outside a function, break outside a loop, an expression that is not a call)."
	case BadArchitecture:
		return "A program that misuses its architecture's package (no main instance, wrong block kinds)."
	case EmptyProgram:
		return "A source file with no declarations of its own (a warning: such a file is valid P4)."
	case DoesNotFit:
		return "A valid program the target cannot hold: a construct its backend does not write, an action none of its ALUs implement, or a limit no placement meets (a compile's error, after the frontend)."
	case AnalysisBounded:
		return "Phase 1's guard analysis reached its bound of solver queries, so past it dependencies and rewrites were decided conservatively (a note: the compile goes on)."
	case RewriteRejected:
		return "Phase 1 rewrote if statements into tables and the frontend rejected the result, a bug of p4hls; the statements the rejected tables replaced stay as written, the other rewrites are kept (a warning)."
	case AssertionFailed:
		return "A static_assert whose condition is false."
	case Deprecated:
		return "A use of a declaration annotated @deprecated (a warning), as v1model's mark_to_drop() without an argument."
	case WrapCostsStage:
		return "A sum or difference an @atomic action compares wraps on some inputs, and no shallower mapping of the action is right on those; the note names the precondition that rules the wrap out (a note: the compile goes on)."
	}
	return ""
}

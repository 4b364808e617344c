// Package parser holds the P4-16 grammar (P4.g4) and the Go lexer and parser
// that ANTLR 4.13 generates from it. Only package frontend imports it; it
// turns the parse tree into its own AST at once.
//
// Regenerate with `go generate ./frontend/...` (see generate.sh).
package parser

// P4.g4: the grammar of P4-16 (language specification v1.2.5) plus what p4c
// also accepts: for loops, compound assignments, bit<(expr)> widths, arrays.
//
// Written for p4hls from the specification. Names that denote types are
// lexed as IDENTIFIER and turned into TYPE_IDENTIFIER by a token pre-scan in
// package frontend (the specification's grammar assumes such a lexer hack;
// ANTLR has no symbol table during lexing). Everything else is context free.
//
// Rule names avoid `emptyStatement` next to `statement`: the Go target
// generates a clashing function for that pair.

grammar P4;

// ---------------------------------------------------------------- program

program
    : declaration* EOF
    ;

declaration
    : constantDeclaration
    | externDeclaration
    | actionDeclaration
    | parserDeclaration
    | controlDeclaration
    | typeDeclaration
    | errorDeclaration
    | matchKindDeclaration
    | functionDeclaration
    | instantiation
    | SEMI
    ;

// ---------------------------------------------------------------- names

nonTypeName
    : IDENTIFIER
    | APPLY
    | KEY
    | ACTIONS
    | STATE
    | ENTRIES
    | TYPE
    | PRIORITY
    | LIST
    ;

name
    : nonTypeName
    | TYPE_IDENTIFIER
    ;

typeName
    : DOT? TYPE_IDENTIFIER
    ;

// ---------------------------------------------------------------- annotations

annotations
    : annotation+
    ;

annotation
    : AT name (LPAREN annotationBody RPAREN | LBRACKET structuredAnnotationBody RBRACKET)?
    | PRAGMA_LINE
    ;

annotationBody
    : (annotationToken | LPAREN annotationBody RPAREN)*
    ;

// Any token but parentheses.
annotationToken
    : ~(LPAREN | RPAREN)
    ;

structuredAnnotationBody
    : expressionList COMMA?
    | kvPair (COMMA kvPair)* COMMA?
    ;

kvPair
    : name ASSIGN expression
    ;

// ---------------------------------------------------------------- parameters

parameterList
    : (parameter (COMMA parameter)*)?
    ;

parameter
    : annotations? direction? typeRef name (ASSIGN expression)?
    ;

direction
    : IN
    | OUT
    | INOUT
    ;

typeParameters
    : LT name (COMMA name)* GT
    ;

constructorParameters
    : LPAREN parameterList RPAREN
    ;

// ---------------------------------------------------------------- packages, parsers

packageTypeDeclaration
    : annotations? PACKAGE name typeParameters? LPAREN parameterList RPAREN
    ;

instantiation
    : annotations? typeRef LPAREN argumentList RPAREN name (LBRACKET expression RBRACKET)? (ASSIGN objectInitializer)? SEMI
    ;

objectInitializer
    : LBRACE objectDeclaration* RBRACE
    ;

objectDeclaration
    : functionDeclaration
    | instantiation
    ;

parserTypeDeclaration
    : annotations? PARSER name typeParameters? LPAREN parameterList RPAREN
    ;

parserDeclaration
    : parserTypeDeclaration constructorParameters? LBRACE parserLocalElement* parserState* RBRACE
    ;

parserLocalElement
    : constantDeclaration
    | instantiation
    | variableDeclaration
    | valueSetDeclaration
    ;

parserState
    : annotations? STATE name LBRACE parserStatement* transitionStatement? RBRACE
    ;

parserStatement
    : statementOrDeclaration
    ;

transitionStatement
    : TRANSITION stateExpression
    ;

stateExpression
    : name SEMI
    | selectExpression
    ;

selectExpression
    : SELECT LPAREN expressionList RPAREN LBRACE selectCase* RBRACE
    ;

selectCase
    : keysetExpression COLON name SEMI
    ;

// A parenthesized list of one keyset is that keyset.
keysetExpression
    : LPAREN simpleKeysetExpression (COMMA simpleKeysetExpression)* RPAREN
    | simpleKeysetExpression
    ;

simpleKeysetExpression
    : expression MASK expression
    | expression RANGE expression
    | expression
    | DEFAULT
    | DONTCARE
    ;

valueSetDeclaration
    : annotations? VALUESET LT typeRef GT LPAREN expression RPAREN name SEMI
    ;

// ---------------------------------------------------------------- controls

controlTypeDeclaration
    : annotations? CONTROL name typeParameters? LPAREN parameterList RPAREN
    ;

controlDeclaration
    : controlTypeDeclaration constructorParameters? LBRACE controlLocalDeclaration* APPLY blockStatement RBRACE
    ;

controlLocalDeclaration
    : constantDeclaration
    | actionDeclaration
    | tableDeclaration
    | instantiation
    | variableDeclaration
    ;

// ---------------------------------------------------------------- externs

externDeclaration
    : annotations? EXTERN nonTypeNameOrType typeParameters? LBRACE methodPrototype* RBRACE
    | annotations? EXTERN functionPrototype SEMI
    ;

// The name of an extern object is declared here, so the pre-scan has already
// marked it a type.
nonTypeNameOrType
    : name
    ;

methodPrototype
    : annotations? TYPE_IDENTIFIER LPAREN parameterList RPAREN SEMI
    | annotations? ABSTRACT? functionPrototype SEMI
    ;

functionPrototype
    : typeOrVoid name typeParameters? LPAREN parameterList RPAREN
    ;

typeOrVoid
    : typeRef
    | VOID
    ;

// ---------------------------------------------------------------- types

typeRef
    : baseType
    | specializedType
    | typeName
    | tupleType
    | typeRef LBRACKET expression RBRACKET
    ;

baseType
    : BOOL
    | MATCH_KIND
    | ERROR
    | STRING
    | BIT (LT widthExpression GT)?
    | INT (LT widthExpression GT)?
    | VARBIT LT widthExpression GT
    ;

// A width is an integer, a parenthesized expression, or a sum or product
// of those and constant names: the full expression grammar would read the
// closing > as a comparison.
widthExpression
    : INTEGER
    | LPAREN expression RPAREN
    | widthSum
    ;

widthSum
    : widthProduct (op+=(PLUS | MINUS) widthProduct)*
    ;

widthProduct
    : widthAtom (op+=(MUL | DIV | MOD) widthAtom)*
    ;

widthAtom
    : INTEGER
    | DOT? nonTypeName
    | LPAREN expression RPAREN
    ;

specializedType
    : typeName LT typeArgumentList GT
    ;

tupleType
    : TUPLE LT typeArgumentList? GT
    | LIST LT typeArgumentList GT
    ;

typeArgumentList
    : typeArgument (COMMA typeArgument)*
    ;

typeArgument
    : typeRef
    | VOID
    | DONTCARE
    ;

typeDeclaration
    : derivedTypeDeclaration
    | typedefDeclaration SEMI
    | parserTypeDeclaration SEMI
    | controlTypeDeclaration SEMI
    | packageTypeDeclaration SEMI
    ;

derivedTypeDeclaration
    : headerTypeDeclaration
    | headerUnionDeclaration
    | structTypeDeclaration
    | enumDeclaration
    ;

headerTypeDeclaration
    : annotations? HEADER name typeParameters? LBRACE structField* RBRACE
    ;

headerUnionDeclaration
    : annotations? HEADER_UNION name typeParameters? LBRACE structField* RBRACE
    ;

structTypeDeclaration
    : annotations? STRUCT name typeParameters? LBRACE structField* RBRACE
    ;

// T name[N] is T[N] name, as p4c also reads it.
structField
    : annotations? typeRef name (LBRACKET expression RBRACKET)? SEMI
    ;

enumDeclaration
    : annotations? ENUM name LBRACE name (COMMA name)* COMMA? RBRACE
    | annotations? ENUM typeRef name LBRACE specifiedIdentifier (COMMA specifiedIdentifier)* COMMA? RBRACE
    ;

specifiedIdentifier
    : name ASSIGN expression
    ;

errorDeclaration
    : ERROR LBRACE name (COMMA name)* COMMA? RBRACE
    ;

matchKindDeclaration
    : MATCH_KIND LBRACE name (COMMA name)* COMMA? RBRACE
    ;

typedefDeclaration
    : annotations? (TYPEDEF | TYPE) (typeRef | derivedTypeDeclaration) name
    ;

// ---------------------------------------------------------------- statements

statement
    : assignmentStatement
    | callStatement
    | conditionalStatement
    | nopStatement
    | blockStatement
    | exitStatement
    | returnStatement
    | switchStatement
    | forStatement
    | breakStatement
    | continueStatement
    ;

assignmentStatement
    : expression assignOp expression SEMI
    ;

assignOp
    : ASSIGN
    | PLUS_ASSIGN
    | MINUS_ASSIGN
    | MUL_ASSIGN
    | DIV_ASSIGN
    | MOD_ASSIGN
    | SHL_ASSIGN
    | GT GE        // >>= is lexed as > >=, as >> is lexed as > >
    | AND_ASSIGN
    | OR_ASSIGN
    | XOR_ASSIGN
    | SATADD_ASSIGN
    | SATSUB_ASSIGN
    ;

callStatement
    : expression SEMI
    ;

nopStatement
    : SEMI
    ;

exitStatement
    : EXIT SEMI
    ;

returnStatement
    : RETURN expression? SEMI
    ;

breakStatement
    : BREAK SEMI
    ;

continueStatement
    : CONTINUE SEMI
    ;

conditionalStatement
    : IF LPAREN expression RPAREN statement (ELSE statement)?
    ;

blockStatement
    : annotations? LBRACE statementOrDeclaration* RBRACE
    ;

statementOrDeclaration
    : variableDeclaration
    | constantDeclaration
    | instantiation
    | statement
    ;

switchStatement
    : SWITCH LPAREN expression RPAREN LBRACE switchCase* RBRACE
    ;

switchCase
    : switchLabel COLON blockStatement
    | switchLabel COLON
    ;

switchLabel
    : DEFAULT
    | expression
    ;

forStatement
    : annotations? FOR LPAREN forInit? SEMI expression? SEMI forUpdate? RPAREN statement
    | annotations? FOR LPAREN typeRef name IN forCollection RPAREN statement
    ;

// What a for-in loop runs over: a range lo .. hi, or a header stack or list.
forCollection
    : expression RANGE expression
    | expression
    ;

forInit
    : forInitItem (COMMA forInitItem)*
    ;

forInitItem
    : typeRef name ASSIGN expression
    | expression assignOp expression
    | expression
    ;

forUpdate
    : forUpdateItem (COMMA forUpdateItem)*
    ;

forUpdateItem
    : expression assignOp expression
    | expression
    ;

// ---------------------------------------------------------------- tables, actions

tableDeclaration
    : annotations? TABLE name LBRACE tableProperty* RBRACE
    ;

tableProperty
    : KEY ASSIGN LBRACE keyElement* RBRACE
    | ACTIONS ASSIGN LBRACE (actionRef SEMI)* RBRACE
    | annotations? CONST? ENTRIES ASSIGN LBRACE entry* RBRACE
    | annotations? CONST? nonTableKwName ASSIGN expression SEMI
    ;

nonTableKwName
    : IDENTIFIER
    | TYPE_IDENTIFIER
    | APPLY
    | STATE
    | TYPE
    | PRIORITY
    | LIST
    ;

keyElement
    : expression COLON name annotations? SEMI
    ;

actionRef
    : annotations? DOT? name (LPAREN argumentList RPAREN)?
    ;

entry
    : CONST? (PRIORITY ASSIGN expression COLON)? keysetExpression COLON actionRef annotations? SEMI
    ;

actionDeclaration
    : annotations? ACTION name LPAREN parameterList RPAREN blockStatement
    ;

// ---------------------------------------------------------------- variables

variableDeclaration
    : annotations? typeRef name (ASSIGN expression)? SEMI
    ;

constantDeclaration
    : annotations? CONST typeRef name ASSIGN expression SEMI
    ;

functionDeclaration
    : annotations? functionPrototype blockStatement
    ;

// ---------------------------------------------------------------- expressions

argumentList
    : (argument (COMMA argument)*)?
    ;

argument
    : expression
    | name ASSIGN expression
    | DONTCARE
    | name ASSIGN DONTCARE
    ;

expressionList
    : (expression (COMMA expression)*)?
    ;

// Alternatives are listed from the tightest binding to the loosest, as
// ANTLR's left-recursion rewriting takes them (P4-16 spec, appendix on
// operator precedence).
expression
    : primary                                                          # primaryExpr
    | expression DOT name                                              # memberExpr
    | expression LBRACKET expression RBRACKET                          # indexExpr
    | expression LBRACKET expression COLON expression RBRACKET         # sliceExpr
    | expression LBRACKET expression PLUS_COLON expression RBRACKET    # plusSliceExpr
    | expression (LT typeArgumentList GT)? LPAREN argumentList RPAREN  # callExpr
    | op=(NOT | COMPLEMENT | MINUS | PLUS) expression                  # unaryExpr
    | LPAREN typeRef RPAREN expression                                 # castExpr
    | expression op=(MUL | DIV | MOD) expression                       # binaryExpr
    | expression op=(PLUS | MINUS | SATADD | SATSUB | CONCAT) expression # binaryExpr
    | expression (SHL | GT GT) expression                              # shiftExpr
    | expression op=AND expression                                     # binaryExpr
    | expression op=XOR expression                                     # binaryExpr
    | expression op=OR expression                                      # binaryExpr
    | expression op=(LE | GE | LT | GT) expression                     # binaryExpr
    | expression op=(EQ | NE) expression                               # binaryExpr
    | expression op=LAND expression                                    # binaryExpr
    | expression op=LOR expression                                     # binaryExpr
    | <assoc = right> expression QUESTION expression COLON expression  # condExpr
    ;

primary
    : INTEGER                                        # intLit
    | TRUE                                           # trueLit
    | FALSE                                          # falseLit
    | STRING_LITERAL                                 # stringLit
    | THIS                                           # thisExpr
    | DOT? nonTypeName                               # nameExpr
    // A type name is a value only as T.member (an enum member) or in a
    // constructor call; allowing it alone would make (T) -x ambiguous.
    | typeName (LT typeArgumentList GT)? DOT name    # typeMemberExpr
    | typeName (LT typeArgumentList GT)? LPAREN argumentList RPAREN # constructorExpr
    | ERROR                                          # errorExpr
    | INVALID_HEADER                                 # invalidExpr
    | DOTS                                           # dotsExpr
    | LBRACE expressionList COMMA? RBRACE            # listExpr
    | LBRACE kvPair (COMMA kvPair)* (COMMA DOTS)? COMMA? RBRACE # structExpr
    | LPAREN expression RPAREN                       # parenExpr
    ;

// ---------------------------------------------------------------- lexer

ABSTRACT     : 'abstract';
ACTION       : 'action';
ACTIONS      : 'actions';
APPLY        : 'apply';
BOOL         : 'bool';
BIT          : 'bit';
BREAK        : 'break';
CONST        : 'const';
CONTINUE     : 'continue';
CONTROL      : 'control';
DEFAULT      : 'default';
ELSE         : 'else';
ENTRIES      : 'entries';
ENUM         : 'enum';
ERROR        : 'error';
EXIT         : 'exit';
EXTERN       : 'extern';
FALSE        : 'false';
FOR          : 'for';
HEADER       : 'header';
HEADER_UNION : 'header_union';
IF           : 'if';
IN           : 'in';
INOUT        : 'inout';
INT          : 'int';
KEY          : 'key';
LIST         : 'list';
MATCH_KIND   : 'match_kind';
OUT          : 'out';
PACKAGE      : 'package';
PARSER       : 'parser';
PRIORITY     : 'priority';
RETURN       : 'return';
SELECT       : 'select';
STATE        : 'state';
STRING       : 'string';
STRUCT       : 'struct';
SWITCH       : 'switch';
TABLE        : 'table';
THIS         : 'this';
TRANSITION   : 'transition';
TRUE         : 'true';
TUPLE        : 'tuple';
TYPE         : 'type';
TYPEDEF      : 'typedef';
VALUESET     : 'value_set';
VARBIT       : 'varbit';
VOID         : 'void';
DONTCARE     : '_';

MASK          : '&&&';
DOTS          : '...';
RANGE         : '..';
INVALID_HEADER : '{#}';
PLUS_COLON    : '+:';
SHL_ASSIGN    : '<<=';
SATADD_ASSIGN : '|+|=';
SATSUB_ASSIGN : '|-|=';
SATADD        : '|+|';
SATSUB        : '|-|';
CONCAT        : '++';
PLUS_ASSIGN   : '+=';
MINUS_ASSIGN  : '-=';
MUL_ASSIGN    : '*=';
DIV_ASSIGN    : '/=';
MOD_ASSIGN    : '%=';
AND_ASSIGN    : '&=';
OR_ASSIGN     : '|=';
XOR_ASSIGN    : '^=';
SHL           : '<<';
LAND          : '&&';
LOR           : '||';
EQ            : '==';
NE            : '!=';
GE            : '>=';
LE            : '<=';
AT            : '@';
LT            : '<';
GT            : '>';
NOT           : '!';
COLON         : ':';
COMMA         : ',';
QUESTION      : '?';
DOT           : '.';
ASSIGN        : '=';
SEMI          : ';';
LBRACE        : '{';
RBRACE        : '}';
LBRACKET      : '[';
RBRACKET      : ']';
LPAREN        : '(';
RPAREN        : ')';
PLUS          : '+';
MINUS         : '-';
MUL           : '*';
DIV           : '/';
MOD           : '%';
OR            : '|';
AND           : '&';
XOR           : '^';
COMPLEMENT    : '~';

// Never produced by the lexer: the pre-scan retypes IDENTIFIER tokens that
// name types.
TYPE_IDENTIFIER : '\u0000' '\u0000';

IDENTIFIER
    : [A-Za-z_] [A-Za-z0-9_]*
    ;

// One token for every integer spelling (8w5, 4s-1 is not one, 0xFF, 1_000,
// 16w0x0800); package frontend checks the digits and reports bad ones with a
// position, which is friendlier than a lexer error.
INTEGER
    : [0-9] [0-9A-Za-z_]*
    ;

// A string may span lines, as p4c's do (long annotation bodies).
STRING_LITERAL
    : '"' ( '\\' . | ~["\\] )* '"'
    ;

// An unterminated string becomes one token the frontend reports.
UNTERMINATED_STRING
    : '"' ( '\\' . | ~["\\] )* EOF
    ;

// p4c's older annotation form, @pragma NAME tokens... to the end of the
// line (a string in it may span lines). The frontend splits it.
PRAGMA_LINE
    : '@pragma' [ \t]+ ( '"' ( '\\' . | ~["\\] )* '"' | ~["\r\n] )*
    ;

WS
    : [ \t\r\n\f]+ -> channel(HIDDEN)
    ;

LINE_COMMENT
    : '//' ~[\r\n]* -> channel(HIDDEN)
    ;

BLOCK_COMMENT
    : '/*' .*? '*/' -> channel(HIDDEN)
    ;

// An unterminated comment becomes one token the frontend reports.
UNTERMINATED_COMMENT
    : '/*' ( ~'*' | '*'+ ~[*/] )* '*'* EOF
    ;

// Anything else is one bad character, reported by the frontend.
BAD_CHAR
    : .
    ;

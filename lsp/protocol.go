package lsp

// The part of LSP 3.17's types the server reads and writes, written here
// rather than taken from a protocol package: the maintained ones stop at
// 3.15 or 3.16, and 3.17's position encodings matter to a compiler whose
// columns count bytes. Field names are the specification's.

// Position is a 0-based line and a character offset in the encoding
// agreed at initialization (UTF-16 code units unless the client offers
// UTF-8).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is [Start, End).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

// contentChange is an edit: Range nil replaces the whole text.
type contentChange struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

type didChangeParams struct {
	TextDocument   versionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                 `json:"contentChanges"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type textDocumentPositionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

type referenceParams struct {
	textDocumentPositionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

type documentSymbolParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type initializeParams struct {
	ProcessID    *int `json:"processId"`
	Capabilities struct {
		General struct {
			PositionEncodings []string `json:"positionEncodings"`
		} `json:"general"`
		// OffsetEncoding is clangd's extension, which 3.17's
		// positionEncodings standardized; Neovim before 0.9 sends it.
		OffsetEncoding []string `json:"offsetEncoding"`
	} `json:"capabilities"`
	InitializationOptions *initOptions `json:"initializationOptions"`
}

// initOptions are the server's settings, given by the editor: what the
// command line's -I and -D give.
type initOptions struct {
	IncludeDirs []string          `json:"includeDirs"`
	Defines     map[string]string `json:"defines"`
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
	// OffsetEncoding answers clangd's extension (when the client used it).
	OffsetEncoding string `json:"offsetEncoding,omitempty"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type serverCapabilities struct {
	PositionEncoding       string            `json:"positionEncoding"`
	TextDocumentSync       textDocumentSync  `json:"textDocumentSync"`
	HoverProvider          bool              `json:"hoverProvider"`
	DefinitionProvider     bool              `json:"definitionProvider"`
	ReferencesProvider     bool              `json:"referencesProvider"`
	DocumentSymbolProvider bool              `json:"documentSymbolProvider"`
	CompletionProvider     completionOptions `json:"completionProvider"`
}

type textDocumentSync struct {
	OpenClose bool `json:"openClose"`
	// Change is 2: incremental edits.
	Change int `json:"change"`
}

const syncIncremental = 2

type completionOptions struct {
	TriggerCharacters []string `json:"triggerCharacters"`
}

// Diagnostic is LSP's diagnostic. Severity: 1 error, 2 warning, 3
// information, 4 hint.
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity"`
	Code               string                         `json:"code,omitempty"`
	Source             string                         `json:"source"`
	Message            string                         `json:"message"`
	RelatedInformation []diagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

type diagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// PublishDiagnosticsParams is the server's notification of a file's
// diagnostics (all of them: an empty list clears the file).
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Hover is a hover's answer.
type Hover struct {
	Contents markupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// DocumentSymbol is one declaration in a document's outline.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// Symbol kinds (LSP's SymbolKind).
const (
	symPackage     = 4
	symClass       = 5
	symMethod      = 6
	symField       = 8
	symEnum        = 10
	symInterface   = 11
	symFunction    = 12
	symVariable    = 13
	symConstant    = 14
	symObject      = 19
	symStruct      = 23
	symEvent       = 24
	symTypeParam   = 26
	symConstructor = 9
)

// CompletionItem is one completion. Kind is LSP's CompletionItemKind.
type CompletionItem struct {
	Label  string `json:"label"`
	Kind   int    `json:"kind"`
	Detail string `json:"detail,omitempty"`
}

// Completion item kinds.
const (
	completeMethod     = 2
	completeFunction   = 3
	completeField      = 5
	completeClass      = 7
	completeEnumMember = 20
)

type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

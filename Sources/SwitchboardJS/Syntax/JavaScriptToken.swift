/// One significant token of JavaScript source, as `JavaScriptLexer` yields it: comments and
/// white space are not tokens.
struct JavaScriptToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A name or a keyword (the lexer does not tell them apart), or a private name `#x`.
        case identifier
        /// `{`, `)`, `=`, ... one character each, except `...`, `?.`, `++`, `--`, `=>` and `/=`.
        case punctuator
        case string
        case number
        case regex
        /// A template literal, or the part of one that ends it: `` `a` `` or `` }b` ``.
        case template
        /// The part of a template literal that opens a substitution: `` `a${ `` or `}b${`.
        case templateHead
    }

    var kind: Kind
    /// Its bytes in the UTF-8 source.
    var range: Range<Int>
    /// The 1-based line it starts on.
    var line: Int
    /// How many `{` and template `${` are open around it: 0 at the top level. A brace has the
    /// depth of what encloses it, so a matching pair has the same depth.
    var depth: Int
    /// Whether a line break comes between it and the token before (automatic semicolons).
    var newlineBefore: Bool
}

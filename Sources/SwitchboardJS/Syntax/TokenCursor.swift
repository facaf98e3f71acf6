/// A position in a source's tokens for reading declarations: the current token and the one
/// before. A copy is an independent position, so reading ahead is reading a copy.
struct TokenCursor {
    private var lexer: JavaScriptLexer
    private(set) var token: JavaScriptToken?
    private(set) var previous: JavaScriptToken?

    init(_ lexer: JavaScriptLexer) {
        self.lexer = lexer
        token = self.lexer.next()
    }

    var bytes: [UInt8] { lexer.bytes }

    mutating func advance() {
        previous = token
        token = lexer.next()
    }

    func isWord(_ word: StaticString) -> Bool {
        token.map { lexer.isWord($0, word) } ?? false
    }

    func isPunctuator(_ character: Unicode.Scalar) -> Bool {
        token.map { lexer.isPunctuator($0, character) } ?? false
    }

    /// Whether the current token is `...`.
    var isEllipsis: Bool {
        guard let token, token.kind == .punctuator, token.range.count == 3 else { return false }
        return bytes[token.range.lowerBound] == UInt8(ascii: ".")
    }

    func text(_ token: JavaScriptToken) -> String {
        lexer.text(token)
    }

    /// Whether the current token follows `.` or `?.`, which makes a keyword a property name.
    var followsDot: Bool {
        previous.map { lexer.isMemberDot($0) } ?? false
    }

    /// The current token if it is a string literal, as a specifier, and its bytes.
    func specifier() -> (ModuleSpecifier, Range<Int>)? {
        guard let token, token.kind == .string else { return nil }
        return (ModuleSpecifier(name: lexer.stringValue(token), line: token.line), token.range)
    }

    /// The current token's text if it is a name, or also a string literal when `orString`.
    func name(orString: Bool = false) -> String? {
        guard let token, token.kind == .identifier || (orString && token.kind == .string) else { return nil }
        return lexer.text(token)
    }
}

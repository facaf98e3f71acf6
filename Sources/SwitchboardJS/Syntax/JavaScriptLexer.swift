/// The significant tokens of a JavaScript source, one at a time, over its UTF-8 bytes.
///
/// Not a parser: it knows just enough grammar to never mistake the inside of a comment,
/// string, template or regular expression for code. Whether a `/` starts a regular
/// expression is decided by the token before it, as most tools that do not parse do: it
/// divides after a name, number, string, template, `)`, `]`, `++` or `--`, and starts a
/// regular expression anywhere else, including after `}` and after the keywords that take
/// an expression (`return /x/`). It goes wrong only on rare code such as
/// `if (a) /x/.test(b)`. A copy is an independent cursor: copy it to look ahead.
struct JavaScriptLexer {
    let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    /// One entry per open `{` or `${`; true for a template substitution, whose `}` resumes
    /// the template.
    private var braces: [Bool] = []
    private var slashStartsRegex = true
    /// Whether the last token was `.` or `?.`, after which a keyword is a property name.
    private var afterDot = false

    init(_ source: String) {
        bytes = Array(source.utf8)
        if bytes.starts(with: [UInt8(ascii: "#"), UInt8(ascii: "!")]) { skipLine() }
    }

    /// The next significant token, or nil at the end of the source. An unterminated string,
    /// template, regular expression or comment ends at the end of its line or of the source;
    /// the engine reports the error, not the lexer.
    mutating func next() -> JavaScriptToken? {
        let newline = skipTrivia()
        guard offset < bytes.count else { return nil }
        let start = offset, startLine = line
        var depth = braces.count
        let kind: JavaScriptToken.Kind
        let first = bytes[offset]
        switch first {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            scanString(quote: first)
            kind = .string
        case UInt8(ascii: "`"):
            offset += 1
            kind = scanTemplate()
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            scanNumber()
            kind = .number
        case UInt8(ascii: "."):
            if isDigit(at: offset + 1) {
                scanNumber()
                kind = .number
            } else {
                offset += byte(at: offset + 1) == UInt8(ascii: ".") && byte(at: offset + 2) == UInt8(ascii: ".") ? 3 : 1
                kind = .punctuator
            }
        case UInt8(ascii: "/"):
            if slashStartsRegex {
                scanRegex()
                kind = .regex
            } else {
                offset += byte(at: offset + 1) == UInt8(ascii: "=") ? 2 : 1
                kind = .punctuator
            }
        case UInt8(ascii: "{"):
            braces.append(false)
            offset += 1
            kind = .punctuator
        case UInt8(ascii: "}"):
            let closesSubstitution = braces.popLast() ?? false
            depth = braces.count
            offset += 1
            kind = closesSubstitution ? scanTemplate() : .punctuator
        case UInt8(ascii: "?"):
            // `a?.5:1` is a conditional, not optional chaining.
            offset += byte(at: offset + 1) == UInt8(ascii: ".") && !isDigit(at: offset + 2) ? 2 : 1
            kind = .punctuator
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "="):
            let second = byte(at: offset + 1)
            offset += second == first || (first == UInt8(ascii: "=") && second == UInt8(ascii: ">")) ? 2 : 1
            kind = .punctuator
        case UInt8(ascii: "#"):
            offset += 1
            scanIdentifier()
            kind = .identifier
        case UInt8(ascii: "\\"):
            scanIdentifier()
            kind = .identifier
        default:
            if Self.isIdentifierPart(first) || first >= 0x80 {
                scanIdentifier()
                kind = .identifier
            } else {
                offset += 1
                kind = .punctuator
            }
        }
        let token = JavaScriptToken(kind: kind, range: start..<offset, line: startLine, depth: depth, newlineBefore: newline)
        noteForNextSlash(token)
        return token
    }

    /// The source text of a token.
    func text(_ token: JavaScriptToken) -> String {
        String(decoding: bytes[token.range], as: UTF8.self)
    }

    /// Whether `token` is the name or keyword `word`, without making a string.
    func isWord(_ token: JavaScriptToken, _ word: StaticString) -> Bool {
        token.kind == .identifier && token.range.count == word.utf8CodeUnitCount
            && word.withUTF8Buffer { bytes[token.range].elementsEqual($0) }
    }

    /// Whether `token` is the punctuator `character`.
    func isPunctuator(_ token: JavaScriptToken, _ character: Unicode.Scalar) -> Bool {
        token.kind == .punctuator && token.range.count == 1 && bytes[token.range.lowerBound] == UInt8(ascii: character)
    }

    /// Whether `token` is `.` or `?.`, after which a keyword is a property name.
    func isMemberDot(_ token: JavaScriptToken) -> Bool {
        token.kind == .punctuator && token.range.count <= 2 && bytes[token.range.upperBound - 1] == UInt8(ascii: ".")
    }

    /// The length of the line terminator at `index` of `bytes` (`\r\n` is one), or 0.
    static func lineTerminatorLength(in bytes: [UInt8], at index: Int) -> Int {
        switch bytes[index] {
        case UInt8(ascii: "\n"): 1
        case UInt8(ascii: "\r"): index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") ? 2 : 1
        // U+2028 and U+2029 end lines too, and the engine counts them.
        case 0xE2: index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) ? 3 : 0
        default: 0
        }
    }

    static func isIdentifierPart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"):
            true
        default:
            false
        }
    }

    // MARK: Scanning

    private func byte(at index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    private func isDigit(at index: Int) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte(at: index))
    }

    /// Steps over a line terminator at `offset` if there is one, counting the line.
    private mutating func skipLineTerminator() -> Bool {
        let length = Self.lineTerminatorLength(in: bytes, at: offset)
        guard length > 0 else { return false }
        offset += length
        line += 1
        return true
    }

    /// White space, line breaks and comments; whether a line break was among them.
    private mutating func skipTrivia() -> Bool {
        var newline = false
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                offset += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                _ = skipLineTerminator()
                newline = true
            case UInt8(ascii: "/"):
                switch byte(at: offset + 1) {
                case UInt8(ascii: "/"):
                    skipLine()
                case UInt8(ascii: "*"):
                    offset += 2
                    while offset < bytes.count {
                        if bytes[offset] == UInt8(ascii: "*") && byte(at: offset + 1) == UInt8(ascii: "/") {
                            offset += 2
                            break
                        }
                        if skipLineTerminator() { newline = true } else { offset += 1 }
                    }
                default:
                    return newline
                }
            case 0x80...:
                if skipLineTerminator() {
                    newline = true
                } else if let length = unicodeSpaceLength() {
                    offset += length
                } else {
                    return newline
                }
            default:
                return newline
            }
        }
        return newline
    }

    /// The length of the non-ASCII white space at `offset` (no-break space, byte order mark,
    /// the Zs spaces), or nil.
    private func unicodeSpaceLength() -> Int? {
        let first = bytes[offset], second = byte(at: offset + 1), third = byte(at: offset + 2)
        switch (first, second) {
        case (0xC2, 0xA0): return 2
        case (0xEF, 0xBB) where third == 0xBF: return 3
        case (0xE1, 0x9A) where third == 0x80: return 3
        case (0xE2, 0x80) where (0x80...0x8A).contains(third) || third == 0xAF: return 3
        case (0xE2, 0x81) where third == 0x9F: return 3
        case (0xE3, 0x80) where third == 0x80: return 3
        default: return nil
        }
    }

    /// To the end of the line, leaving the line terminator.
    private mutating func skipLine() {
        while offset < bytes.count {
            let byte = bytes[offset]
            if (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == 0xE2) && Self.lineTerminatorLength(in: bytes, at: offset) > 0 {
                return
            }
            offset += 1
        }
    }

    /// A backslash escape: the backslash and what it escapes, a line continuation counted.
    private mutating func skipEscape() {
        offset += 1
        guard offset < bytes.count, !skipLineTerminator() else { return }
        offset += 1
    }

    private mutating func scanString(quote: UInt8) {
        offset += 1
        while offset < bytes.count {
            switch bytes[offset] {
            case quote:
                offset += 1
                return
            case UInt8(ascii: "\\"):
                skipEscape()
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                return
            default:
                // U+2028 and U+2029 may stand in a string, where the engine does not count
                // them as line breaks.
                offset += 1
            }
        }
    }

    /// From just after `` ` `` or the `}` of a substitution to just after the closing
    /// `` ` `` or the next `${`.
    private mutating func scanTemplate() -> JavaScriptToken.Kind {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "`"):
                offset += 1
                return .template
            case UInt8(ascii: "\\"):
                skipEscape()
            case UInt8(ascii: "$") where byte(at: offset + 1) == UInt8(ascii: "{"):
                offset += 2
                braces.append(true)
                return .templateHead
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0xE2:
                if !skipLineTerminator() { offset += 1 }
            default:
                offset += 1
            }
        }
        return .template
    }

    private mutating func scanRegex() {
        offset += 1
        var inClass = false
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\\"):
                offset += 1
                if offset < bytes.count && Self.lineTerminatorLength(in: bytes, at: offset) == 0 { offset += 1 }
            case UInt8(ascii: "["):
                inClass = true
                offset += 1
            case UInt8(ascii: "]"):
                inClass = false
                offset += 1
            case UInt8(ascii: "/") where !inClass:
                offset += 1
                scanIdentifier()  // the flags
                return
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                return
            case 0xE2 where Self.lineTerminatorLength(in: bytes, at: offset) > 0:
                return
            default:
                offset += 1
            }
        }
    }

    /// Decimal, hexadecimal, octal, binary, with separators, exponent or BigInt suffix.
    private mutating func scanNumber() {
        let prefix = byte(at: offset + 1) | 0x20
        if bytes[offset] == UInt8(ascii: "0") && (prefix == UInt8(ascii: "x") || prefix == UInt8(ascii: "o") || prefix == UInt8(ascii: "b")) {
            offset += 2
            while offset < bytes.count && Self.isIdentifierPart(bytes[offset]) { offset += 1 }
            return
        }
        skipDigits()
        if byte(at: offset) == UInt8(ascii: ".") {
            offset += 1
            skipDigits()
        }
        if byte(at: offset) | 0x20 == UInt8(ascii: "e") {
            offset += 1
            if byte(at: offset) == UInt8(ascii: "+") || byte(at: offset) == UInt8(ascii: "-") { offset += 1 }
            skipDigits()
        }
        if byte(at: offset) == UInt8(ascii: "n") { offset += 1 }
    }

    private mutating func skipDigits() {
        while offset < bytes.count && (isDigit(at: offset) || bytes[offset] == UInt8(ascii: "_")) { offset += 1 }
    }

    /// Name characters, escapes (`\u0061`, `\u{61}`) and non-ASCII letters.
    private mutating func scanIdentifier() {
        while offset < bytes.count {
            let byte = bytes[offset]
            if Self.isIdentifierPart(byte) {
                offset += 1
            } else if byte == UInt8(ascii: "\\") {
                offset += 1
                if self.byte(at: offset) == UInt8(ascii: "u") && self.byte(at: offset + 1) == UInt8(ascii: "{") {
                    while offset < bytes.count && bytes[offset] != UInt8(ascii: "}") { offset += 1 }
                }
                offset += 1
            } else if byte >= 0x80 && Self.lineTerminatorLength(in: bytes, at: offset) == 0 && unicodeSpaceLength() == nil {
                offset += 1
            } else {
                return
            }
        }
    }

    // MARK: Regular expression or division

    /// The keywords after which an expression starts, so a `/` starts a regular expression.
    private static let keywordsBeforeExpression: [[UInt8]] = [
        "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await",
    ].map { Array($0.utf8) }

    private mutating func noteForNextSlash(_ token: JavaScriptToken) {
        switch token.kind {
        case .identifier:
            let name = bytes[token.range]
            slashStartsRegex = !afterDot && Self.keywordsBeforeExpression.contains { $0.count == name.count && $0.elementsEqual(name) }
            afterDot = false
        case .punctuator:
            let first = bytes[token.range.lowerBound]
            switch first {
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                slashStartsRegex = false
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                // `a++ / 2`: a regular expression cannot follow `++`, it cannot be incremented.
                slashStartsRegex = token.range.count == 1
            default:
                slashStartsRegex = true
            }
            afterDot = isMemberDot(token)
        case .templateHead:
            slashStartsRegex = true
            afterDot = false
        case .string, .number, .regex, .template:
            slashStartsRegex = false
            afterDot = false
        }
    }
}

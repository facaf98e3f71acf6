/// Reading the names a `var`, `let` or `const` declaration binds, including destructuring
/// patterns, skipping initializers and default values without parsing them.
extension TokenCursor {
    /// At `var`, `let` or `const`: the names of all its declarators.
    mutating func declaredBindings() -> [String]? {
        var names: [String] = []
        repeat {
            advance()
            guard bindingNames(into: &names) else { return nil }
            if isPunctuator("=") {
                advance()
                skipExpression(endsAtStatement: true)
            }
        } while isPunctuator(",")
        return names
    }

    /// A name, `{ … }` or `[ … ]` pattern, leaving the cursor after it.
    private mutating func bindingNames(into names: inout [String]) -> Bool {
        if isPunctuator("[") {
            advance()
            while !isPunctuator("]") {
                if isPunctuator(",") {  // a hole
                    advance()
                    continue
                }
                if isEllipsis { advance() }  // ...rest
                guard bindingNames(into: &names) else { return false }
                skipDefault()
                if isPunctuator(",") { advance() } else if !isPunctuator("]") { return false }
            }
            advance()
            return true
        }
        if isPunctuator("{") {
            advance()
            while !isPunctuator("}") {
                if isEllipsis {
                    advance()
                    guard bindingNames(into: &names) else { return false }
                } else {
                    guard propertyKey(into: &names) else { return false }
                    if isPunctuator(":") {
                        advance()
                        guard bindingNames(into: &names) else { return false }
                    }
                }
                skipDefault()
                if isPunctuator(",") { advance() } else if !isPunctuator("}") { return false }
            }
            advance()
            return true
        }
        guard let name = name() else { return false }
        names.append(name)
        advance()
        return true
    }

    /// A property of an object pattern up to its `:`; a shorthand one (`{ a }`, `{ a = 1 }`)
    /// binds its own name.
    private mutating func propertyKey(into names: inout [String]) -> Bool {
        guard let key = token else { return false }
        if isPunctuator("[") {  // computed: [expression]
            advance()
            skipExpression(endsAtStatement: false)
            guard isPunctuator("]") else { return false }
            advance()
            return isPunctuator(":")
        }
        guard key.kind == .identifier || key.kind == .string || key.kind == .number else { return false }
        advance()
        if key.kind == .identifier && !isPunctuator(":") { names.append(text(key)) }
        return true
    }

    /// `= value` after a binding, if there.
    private mutating func skipDefault() {
        guard isPunctuator("=") else { return }
        advance()
        skipExpression(endsAtStatement: false)
    }

    /// Over an expression: up to a `,`, `;` or closing bracket not inside it. With
    /// `endsAtStatement`, also up to a line break where a new statement must begin (after
    /// `1` or `)`, before a name, literal, `{` or prefix operator), so that the declarators
    /// of a declaration without a semicolon are not looked for in the next statement.
    private mutating func skipExpression(endsAtStatement: Bool) {
        var nesting = 0
        while let token {
            if nesting == 0 {
                if isPunctuator(",") || isPunctuator(";") { return }
                if endsAtStatement && token.newlineBefore && previousEndsExpression && startsStatement { return }
            }
            switch token.kind {
            case .punctuator where isPunctuator("(") || isPunctuator("[") || isPunctuator("{"):
                nesting += 1
            case .punctuator where isPunctuator(")") || isPunctuator("]") || isPunctuator("}"):
                if nesting == 0 { return }
                nesting -= 1
            case .templateHead where bytes[token.range.lowerBound] == UInt8(ascii: "`"):
                nesting += 1  // `…${ opens, }…${ neither opens nor closes
            case .template where bytes[token.range.lowerBound] == UInt8(ascii: "}"):
                nesting -= 1  // }…` closes
            default:
                break
            }
            advance()
        }
    }

    private var previousEndsExpression: Bool {
        guard let previous else { return false }
        switch previous.kind {
        case .identifier, .number, .string, .regex, .template: return true
        case .templateHead: return false
        case .punctuator:
            let last = bytes[previous.range.upperBound - 1]
            return [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(last)
                || (previous.range.count == 2 && (last == UInt8(ascii: "+") || last == UInt8(ascii: "-")))
        }
    }

    /// Whether the current token cannot continue an expression, so it starts a statement.
    private var startsStatement: Bool {
        guard let token else { return false }
        switch token.kind {
        case .identifier: return !isWord("in") && !isWord("instanceof")
        case .number, .string: return true
        case .punctuator:
            return isPunctuator("{") || isPunctuator("!") || isPunctuator("~") || token.range.count == 2
                && [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[token.range.lowerBound])
                && bytes[token.range.lowerBound] == bytes[token.range.lowerBound + 1]
        case .regex, .template, .templateHead: return false
        }
    }
}

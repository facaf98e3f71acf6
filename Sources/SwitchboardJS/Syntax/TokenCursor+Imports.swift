/// Reading `require('m')`, `import(…)`, `import.meta` and import declarations. Each reader
/// starts at its keyword and returns nil, wherever it stopped, when the tokens are not
/// that syntax; callers read with a copy of their cursor.
extension TokenCursor {
    /// At `require`: `require('m')`, with a string literal as the only argument.
    mutating func requireCall() -> ModuleItem? {
        guard let start = token?.range.lowerBound else { return nil }
        advance()
        guard isPunctuator("(") else { return nil }
        advance()
        guard let (specifier, literal) = specifier() else { return nil }
        advance()
        guard isPunctuator(")"), let end = token?.range.upperBound else { return nil }
        return ModuleItem(kind: .require, range: start..<end, specifier: specifier, literal: literal)
    }

    /// At `import`: `import(` (with its specifier when the first argument is a string literal
    /// and nothing is added to it) or `import.meta`.
    mutating func importExpression() -> ModuleItem? {
        guard let start = token?.range.lowerBound else { return nil }
        advance()
        if isPunctuator("("), let parenthesis = token {
            advance()
            let named = specifier()
            advance()
            let whole = isPunctuator(")") || isPunctuator(",")
            return ModuleItem(
                kind: .dynamicImport, range: start..<parenthesis.range.upperBound,
                specifier: whole ? named?.0 : nil, literal: whole ? named?.1 : nil)
        }
        guard isPunctuator(".") else { return nil }
        advance()
        guard isWord("meta"), let end = token?.range.upperBound else { return nil }
        return ModuleItem(kind: .importMeta, range: start..<end)
    }

    /// At `import`, at the top level: `import 'm'`, `import X from 'm'`,
    /// `import * as ns from 'm'`, `import { a, b as c } from 'm'`, `import X, * as ns …`,
    /// `import X, { … } …`, each with optional attributes (`with { type: 'json' }`). Leaves
    /// the cursor after the declaration.
    mutating func importDeclaration() -> ModuleItem? {
        guard let start = token?.range.lowerBound else { return nil }
        advance()
        var clause = ImportClause()
        if token?.kind != .string {
            if !isPunctuator("{") && !isPunctuator("*") {
                guard let name = name() else { return nil }
                clause.defaultBinding = name
                advance()
                if isPunctuator(",") {
                    advance()
                    guard isPunctuator("{") || isPunctuator("*") else { return nil }
                }
            }
            if isPunctuator("*") {
                advance()
                guard isWord("as") else { return nil }
                advance()
                guard let name = name() else { return nil }
                clause.namespace = name
                advance()
            } else if isPunctuator("{") {
                guard let named = braceList() else { return nil }
                clause.named = named
            }
            guard isWord("from") else { return nil }
            advance()
        }
        return fromClause(kind: .importDeclaration(clause), start: start)
    }

    /// At the specifier that ends an import or export declaration: the item through it and
    /// its attributes, leaving the cursor after them.
    mutating func fromClause(kind: ModuleItem.Kind, start: Int) -> ModuleItem? {
        guard let (specifier, literal) = specifier() else { return nil }
        var end = literal.upperBound
        advance()
        // Import attributes (`with`, or `assert` on the same line) change nothing here.
        if isWord("with") || (isWord("assert") && token?.newlineBefore == false) {
            advance()
            guard isPunctuator("{"), let depth = token?.depth else { return nil }
            while let token, !(isPunctuator("}") && token.depth == depth) { advance() }
            guard let close = token else { return nil }
            end = close.range.upperBound
            advance()
        }
        return ModuleItem(kind: kind, range: start..<end, specifier: specifier, literal: literal)
    }

    /// At `{`: `{ a, b as c, "d e" as f, }`, leaving the cursor after `}`. Names may be
    /// string literals wherever they are written; the engine rejects those the grammar does
    /// not allow, as the declaration it would have seen.
    mutating func braceList() -> [Rename]? {
        advance()
        var renames: [Rename] = []
        while !isPunctuator("}") {
            guard let from = name(orString: true) else { return nil }
            advance()
            var to = from
            if isWord("as") {
                advance()
                guard let alias = name(orString: true) else { return nil }
                to = alias
                advance()
            }
            renames.append(Rename(from: from, to: to))
            if isPunctuator(",") { advance() } else if !isPunctuator("}") { return nil }
        }
        advance()
        return renames
    }
}

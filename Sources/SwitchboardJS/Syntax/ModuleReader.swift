/// The module syntax of a source, found in one pass over its tokens: what the specifier scan
/// lists and what the CommonJS rewrite replaces. `import` and `export` are reserved words,
/// so outside comments, strings and templates, and not after `.`, they are the keywords;
/// declarations are read only at the top level, the only place they may be.
enum ModuleReader {
    static func items(in lexer: JavaScriptLexer) -> [ModuleItem] {
        var cursor = TokenCursor(lexer)
        var items: [ModuleItem] = []
        while let token = cursor.token {
            guard token.kind == .identifier, !cursor.followsDot, let item = item(at: cursor) else {
                cursor.advance()
                continue
            }
            items.append(item)
            // On after what it covers. That is only its keywords for a declaration that is
            // also code (`export function f() { require('x') }`) and all of an import
            // declaration, export list or re-export, where nothing is code.
            while let next = cursor.token, next.range.lowerBound < item.range.upperBound { cursor.advance() }
        }
        return items
    }

    private static func item(at cursor: TokenCursor) -> ModuleItem? {
        var reading = cursor
        if cursor.isWord("require") { return reading.requireCall() }
        let topLevel = cursor.token?.depth == 0
        if cursor.isWord("import") {
            if let item = reading.importExpression() { return item }
            reading = cursor
            return topLevel ? reading.importDeclaration() : nil
        }
        return topLevel && cursor.isWord("export") ? reading.exportDeclaration() : nil
    }
}

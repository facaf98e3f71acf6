/// Reading export declarations, from the `export` keyword at the top level.
extension TokenCursor {
    /// `export default …`, `export function|async function|class|var|let|const …`,
    /// `export { … }`, `export { … } from 'm'`, `export * from 'm'`, `export * as ns from 'm'`.
    /// Declarations are read ahead only for their names: the caller goes on reading them as
    /// code after the keyword.
    mutating func exportDeclaration() -> ModuleItem? {
        guard let keyword = token else { return nil }
        let start = keyword.range.lowerBound
        advance()
        if isWord("default"), let defaultKeyword = token {
            advance()
            let range = start..<defaultKeyword.range.upperBound
            guard startsFunctionOrClass() else { return ModuleItem(kind: .exportDefaultExpression, range: range) }
            let (name, nameOffset) = declaredName()
            return ModuleItem(kind: .exportDefaultDeclaration(name: name, nameOffset: nameOffset), range: range)
        }
        if startsFunctionOrClass() {
            guard let name = declaredName().name else { return nil }
            return ModuleItem(kind: .exportDeclaration(names: [name]), range: keyword.range)
        }
        if isWord("var") || isWord("let") || isWord("const") {
            guard let names = declaredBindings() else { return nil }
            return ModuleItem(kind: .exportDeclaration(names: names), range: keyword.range)
        }
        if isPunctuator("{") {
            guard let renames = braceList(), let close = previous else { return nil }
            guard isWord("from") else {
                // Only a re-export may name what it exports with a string literal.
                guard !renames.contains(where: \.fromIsString) else { return nil }
                return ModuleItem(kind: .exportList(renames), range: start..<close.range.upperBound)
            }
            advance()
            return fromClause(kind: .exportFrom(renames), start: start)
        }
        guard isPunctuator("*") else { return nil }
        advance()
        var namespace: String?
        if isWord("as") {
            advance()
            namespace = name(orString: true)
            guard namespace != nil else { return nil }
            advance()
        }
        guard isWord("from") else { return nil }
        advance()
        return fromClause(kind: .exportAll(as: namespace), start: start)
    }

    /// Whether a function or class declaration starts here: `function`, `class`, or
    /// `async function` on one line (`async` alone starts an arrow function expression).
    /// Leaves the cursor on `function` or `class` when it does.
    private mutating func startsFunctionOrClass() -> Bool {
        if isWord("function") || isWord("class") { return true }
        guard isWord("async") else { return false }
        var ahead = self
        ahead.advance()
        guard ahead.isWord("function"), ahead.token?.newlineBefore == false else { return false }
        self = ahead
        return true
    }

    /// At `function` or `class`: the declared name, or nil and the offset after `function`,
    /// `function*` or `class` where an anonymous one would take its name.
    private mutating func declaredName() -> (name: String?, nameOffset: Int) {
        let isClass = isWord("class")
        advance()
        if !isClass && isPunctuator("*") { advance() }
        let nameOffset = previous?.range.upperBound ?? 0
        guard !(isClass && isWord("extends")), let name = name() else { return (nil, nameOffset) }
        return (name, nameOffset)
    }
}

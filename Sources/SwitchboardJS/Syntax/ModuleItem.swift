/// One piece of module syntax in a source, as `ModuleReader` finds it: what it is, the bytes
/// it covers, and the module it names when a string literal names one.
struct ModuleItem {
    enum Kind {
        /// `require('m')`, not a member such as `loader.require('m')`. Only listed.
        case require
        /// `import(`, through its parenthesis.
        case dynamicImport
        /// `import.meta`.
        case importMeta
        /// `import … from 'm'` or `import 'm'`, through the specifier or its attributes.
        case importDeclaration(ImportClause)
        /// The `export` keyword of `export function|class|var|let|const …`: the declaration
        /// stays and exports these names as themselves.
        case exportDeclaration(names: [String])
        /// `export default` before a function or class declaration, with its name, or nil and
        /// the offset where an anonymous one needs one.
        case exportDefaultDeclaration(name: String?, nameOffset: Int)
        /// `export default` before an expression.
        case exportDefaultExpression
        /// `export { a, b as c }`, whole: local names `from`, exported as `to`.
        case exportList([Rename])
        /// `export { a, b as c } from 'm'`, whole.
        case exportFrom([Rename])
        /// `export * from 'm'` or `export * as ns from 'm'`, whole.
        case exportAll(as: String?)
    }

    var kind: Kind
    var range: Range<Int>
    /// The module named by a string literal, and that literal's bytes.
    var specifier: ModuleSpecifier?
    var literal: Range<Int>?

    /// Whether it makes its source an ES module: a static `import` or `export`.
    var isDeclaration: Bool {
        if case .importDeclaration = kind { return true }
        return isExport
    }

    var isExport: Bool {
        switch kind {
        case .require, .dynamicImport, .importMeta, .importDeclaration: false
        case .exportDeclaration, .exportDefaultDeclaration, .exportDefaultExpression, .exportList, .exportFrom, .exportAll: true
        }
    }
}

/// `from as to` in a brace list, each as written (a name, or a string literal where the
/// grammar allows one); `a` alone is `a as a`.
struct Rename: Equatable {
    var from: String
    var to: String

    var fromIsString: Bool { from.first == "\"" || from.first == "'" }
}

/// What an import declaration binds: `Default, * as namespace` or `Default, { named }`.
struct ImportClause {
    var defaultBinding: String?
    var namespace: String?
    var named: [Rename] = []
}

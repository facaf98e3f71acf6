/// A module a source names with a string literal, and the 1-based line it is named on.
struct ModuleSpecifier: Equatable, Sendable {
    var name: String
    var line: Int
}

/// Which modules a source loads, found without running it: how the server learns which
/// packages a project needs.
enum ModuleSpecifiers {
    /// Every string-literal specifier of `require('m')`, `import … from 'm'`, `import 'm'`,
    /// `export … from 'm'` and `import('m')`, in source order; never one in a comment, string
    /// or template, nor `loader.require('m')`. `require(name)` with anything but a string
    /// literal is left out: what it loads is known only when it runs.
    static func scan(_ source: String) -> [ModuleSpecifier] {
        ModuleReader.items(in: JavaScriptLexer(source)).compactMap(\.specifier)
    }
}

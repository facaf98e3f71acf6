/// The JavaScript that stands in for each piece of module syntax, one line each. It is
/// self-contained: a script may replace any global, so it calls no helper of ours, only
/// `require`, `exports`, `Object` and `Promise`; its own names (`m`, `s`, `k`) are
/// parameters of its arrow functions, which shadow nothing of the module's.
enum CommonJSText {
    /// An import declaration's bindings as one `const` statement, from `load`
    /// (`require('m')`); a semicolon always ends it, as the declaration ended there even
    /// without one.
    static func importStatement(_ clause: ImportClause, load: String) -> String {
        var bindings = clause.named.map { "\($0.from): \($0.to)" }
        if let name = clause.defaultBinding { bindings.insert("default: " + name, at: 0) }
        let pattern = "{ " + bindings.joined(separator: ", ") + " }"
        switch (clause.namespace, bindings.isEmpty) {
        case (nil, true): return load + ";"
        case (let namespace?, true): return "const \(namespace) = \(load);"
        case (let namespace?, false): return "const \(namespace) = \(load), \(pattern) = \(interop(namespace));"
        case (nil, false): return "const \(pattern) = \(interop(load));"
        }
    }

    /// Replaces `import(` and leaves the arguments where they are: the specifier is
    /// evaluated at once, the module loaded in a later job, and a failure rejects.
    static let dynamicImport = "(s => Promise.resolve().then(() => " + interop("require(s)") + "))("

    /// What goes first, on line 1: strict mode; `import.meta` as `meta` if the module uses
    /// it, made once from the wrapper's `__filename` (a loose file has none); then the block
    /// the module runs in (`end` closes it), beginning with the module's own exports as live
    /// getters, marked `__esModule` (not enumerable, as Babel does) for CommonJS importers
    /// and other modules.
    ///
    /// In that block a module may declare `__filename`, `__dirname` or `module` itself, as
    /// ES modules do (`const __dirname = path.dirname(fileURLToPath(import.meta.url))`):
    /// its declarations shadow the wrapper's parameters, which the code of Babel's days
    /// still finds when it declares none.
    static func prologue(meta: String?, exports: [(name: String, local: String)]?) -> String {
        var text = "'use strict';"
        if let meta {
            text += "const \(meta) = typeof __filename === 'string' ? { url: 'file://' + __filename, filename: __filename, dirname: __dirname } : {};"
        }
        text += "{"
        guard let exports else { return text }
        let getters = exports.map { ", \($0.name): { enumerable: true, get: () => \($0.local) }" }
        return text + "Object.defineProperties(exports, { __esModule: { value: true }" + getters.joined() + " });"
    }

    /// Closes the module's block on a line of its own, after the module's last line, which
    /// may end in a comment.
    static let end = "\n}"

    /// `export { a, b as c } from 'm'`: getters reading the loaded module.
    static func reexport(_ renames: [Rename], load: String) -> String {
        let getters = renames.map { "\($0.to): { enumerable: true, get: () => \(member($0, of: "m")) }" }
        return "(m => Object.defineProperties(exports, { \(getters.joined(separator: ", ")) }))(\(interop(load)));"
    }

    /// `export * from 'm'`: each name but `default`, and but those this module exports
    /// itself, which are defined on line 1, before this runs.
    static func reexportAll(load: String) -> String {
        "(m => { for (const k in m) if (k !== 'default' && !Object.prototype.hasOwnProperty.call(exports, k)) "
            + "Object.defineProperty(exports, k, { enumerable: true, get: () => m[k] }); })(\(load));"
    }

    /// `export * as ns from 'm'`.
    static func reexportNamespace(_ name: String, load: String) -> String {
        "Object.defineProperties(exports, { \(name): { enumerable: true, value: \(load) } });"
    }

    /// A loaded module as an ES module sees it: itself if marked `__esModule`, else an object
    /// inheriting its names with the CommonJS export itself as `default`.
    private static func interop(_ module: String) -> String {
        "(m => m && m.__esModule ? m : { __proto__: m, default: m })(\(module))"
    }

    /// `object.name`, or `object["name"]` for a name written as a string literal.
    private static func member(_ rename: Rename, of object: String) -> String {
        rename.fromIsString ? "\(object)[\(rename.from)]" : "\(object).\(rename.from)"
    }
}

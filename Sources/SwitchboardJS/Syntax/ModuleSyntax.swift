/// ES module syntax as CommonJS, since JavaScriptCore's C API has no module loader: files
/// with `import` and `export` run through the prelude's `require` like any other.
///
/// Each declaration is replaced where it stands, on its own line, and the rest of the file is
/// left byte for byte, so the engine's line numbers (errors, syntax errors, stacks) stay the
/// file's. What must come first goes on line 1: `'use strict'` (modules are strict) and the
/// exports, defined up front as getters over the module's own bindings so that they are live
/// (a `let` reassigned later is seen; one not yet initialized throws, as in a module). The
/// module runs in a block, closed on a line added after its last. `CommonJSText` has the
/// JavaScript that replaces each form.
///
/// Imports bind constants, read when the import runs: not live, and not hoisted above the
/// code before them (imports nearly always come first). A default import is the CommonJS
/// export itself unless the module marks itself `__esModule`, so `import AV from
/// 'leanengine'` is the SDK. `import * as ns` is the module object; `import()` resolves to
/// it when it is marked, else to an object that inherits the export and has it as
/// `default`. `import.meta` is `{ url, filename, dirname }`: `file://` and the file's path from
/// the project's root, the path, its folder (`{}` for a loose file).
enum ModuleSyntax {
    /// `source` as CommonJS, or nil when it has no static `import` or `export` at the top
    /// level and so is not an ES module: CommonJS files, the great majority, come back nil,
    /// most without being lexed.
    static func commonJS(_ source: String) -> String? {
        guard mentionsImportOrExport(source) else { return nil }
        let lexer = JavaScriptLexer(source)
        let items = ModuleReader.items(in: lexer)
        guard items.contains(where: \.isDeclaration) else { return nil }
        var rewrite = LineKeepingRewrite(lexer.bytes)
        // Inside the function the module becomes, a shebang line would be a syntax error.
        if lexer.bytes.starts(with: [UInt8(ascii: "#"), UInt8(ascii: "!")]) { rewrite.replace(0..<2, with: "//") }
        var exported: [(name: String, local: String)] = []
        var meta: String?  // named when first used
        for item in items {
            let load = item.literal.map { "require(" + String(decoding: lexer.bytes[$0], as: UTF8.self) + ")" } ?? ""
            switch item.kind {
            case .require:
                continue
            case .dynamicImport:
                rewrite.replace(item.range, with: CommonJSText.dynamicImport)
            case .importMeta:
                let name = meta ?? unusedName("_importMeta", in: source)
                meta = name
                rewrite.replace(item.range, with: name)
            case .importDeclaration(let clause):
                rewrite.replace(item.range, with: CommonJSText.importStatement(clause, load: load))
            case .exportDeclaration(let names):
                rewrite.replace(item.range, with: "")
                exported += names.map { ($0, $0) }
            case .exportDefaultDeclaration(let name, let nameOffset):
                rewrite.replace(item.range, with: "")
                let local = name ?? unusedName("_default", in: source)
                if name == nil { rewrite.replace(nameOffset..<nameOffset, with: " " + local) }
                exported.append(("default", local))
            case .exportDefaultExpression:
                rewrite.replace(item.range, with: "exports.default =")
            case .exportList(let renames):
                rewrite.replace(item.range, with: "")
                exported += renames.map { ($0.to, $0.from) }
            case .exportFrom(let renames):
                rewrite.replace(item.range, with: CommonJSText.reexport(renames, load: load))
            case .exportAll(as: let namespace?):
                rewrite.replace(item.range, with: CommonJSText.reexportNamespace(namespace, load: load))
            case .exportAll(as: nil):
                rewrite.replace(item.range, with: CommonJSText.reexportAll(load: load))
            }
        }
        // A file that only imports is not marked `__esModule`: one that still assigns
        // `exports.x` keeps being imported as CommonJS.
        rewrite.prologue = CommonJSText.prologue(meta: meta, exports: items.contains(where: \.isExport) ? exported : nil)
        return rewrite.result + CommonJSText.end
    }

    /// `base`, or `base` and a number, that occurs nowhere in the source, so it can name an
    /// anonymous default export without capturing or shadowing anything.
    private static func unusedName(_ base: String, in source: String) -> String {
        var name = base
        var number = 1
        while source.utf8.contains(name.utf8) {
            name = base + String(number)
            number += 1
        }
        return name
    }

    /// Whether `import` or `export` occurs as a whole word (`module.exports` does not count).
    /// A false alarm only costs a lexing; the keywords cannot be spelled otherwise.
    private static func mentionsImportOrExport(_ source: String) -> Bool {
        var source = source
        return source.withUTF8 { bytes in
            let p = UInt8(ascii: "p"), o = UInt8(ascii: "o"), r = UInt8(ascii: "r"), t = UInt8(ascii: "t")
            var index = 2
            while index + 3 < bytes.count {
                defer { index += 1 }
                guard bytes[index] == p, bytes[index + 1] == o, bytes[index + 2] == r, bytes[index + 3] == t else { continue }
                let first = bytes[index - 2], second = bytes[index - 1]
                guard (first == UInt8(ascii: "i") && second == UInt8(ascii: "m")) || (first == UInt8(ascii: "e") && second == UInt8(ascii: "x"))
                else { continue }
                let before = index >= 3 ? bytes[index - 3] : 0, after = index + 4 < bytes.count ? bytes[index + 4] : 0
                if !JavaScriptLexer.isIdentifierPart(before) && !JavaScriptLexer.isIdentifierPart(after) { return true }
            }
            return false
        }
    }
}

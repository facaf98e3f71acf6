import Crypto
import Foundation

/// What the hooks folder holds: loose `*.js` files, each a script, and folders, each a
/// LeanEngine project loaded from its entry module, with the packages they need.
enum ScriptFolder {
    /// A project whose modules reach past these is refused: a web app's front end is not what
    /// hooks need.
    static let maxProjectBytes = 32 << 20
    static let maxProjectFiles = 10_000
    /// Where a LeanEngine project keeps its cloud code, in the order looked for. The
    /// package's `main` comes after: in LeanEngine projects it usually starts a web server.
    static let entryCandidates = ["cloud.js", "cloud/main.js", "cloud/index.js"]

    /// What loads as a loose script: JavaScript, and TypeScript to be told to compile first.
    static let scriptSuffixes = [".js", ".mjs", ".ts"]
    static let typeScriptProblem = "is TypeScript: compile it to JavaScript first (tsc)"

    /// An entry as read: what its VM runs, a version that changes with any of its files (the
    /// packages it needs included), and the modules it names that it cannot have.
    struct Entry: Sendable {
        var source: ScriptContext.Source
        var version: String
        var missing: [MissingModule]
    }

    /// Loose scripts (`name.js`) and project folders (`name`), in name order.
    static func entries(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { name in
            guard !name.hasPrefix("."), !name.hasSuffix(".d.ts") else { return false }
            return scriptSuffixes.contains { name.hasSuffix($0) } || isDirectory(directory + "/" + name)
        }.sorted()
    }

    /// The entry a changed path belongs to: `name.js` for a loose script, the folder for
    /// anything inside a project; nil for what is neither.
    static func entry(containing path: String) -> String? {
        let first = path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? path
        guard !first.hasPrefix(".") else { return nil }
        return path.contains("/") || !scriptSuffixes.contains(where: { first.hasSuffix($0) }) ? first : path
    }

    /// Reads an entry: the files its modules reach, with the packages it needs from
    /// `modulePaths`. nil if the entry is gone.
    static func read(_ entry: String, in directory: String, modulePaths: [String] = []) throws(ScriptError) -> Entry? {
        let path = directory + "/" + entry
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let limits = (files: maxProjectFiles, bytes: maxProjectBytes)
        guard isDirectory(path) else {
            if entry.hasSuffix(".ts") { throw ScriptError(file: entry, line: nil, message: typeScriptProblem) }
            guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ScriptError(file: entry, line: nil, message: "cannot be read as UTF-8 text")
            }
            let reached = try ReachableModules(folder: nil, files: [entry: source], entry: entry, modulePaths: modulePaths, limits: limits)
            guard reached.usesModulePaths else { return Entry(source: .file(source), version: version(of: [source]), missing: reached.missing) }
            return Entry(source: .project(files: reached.files, entry: entry), version: version(of: reached.files), missing: reached.missing)
        }
        guard let main = entryModule(in: path) else {
            let sorted = typeScriptFiles(in: path).sorted()
            if let named = sorted.first(where: { entryCandidates.contains(String($0.dropLast(3)) + ".js") }) ?? sorted.first {
                throw ScriptError(file: entry + "/" + named, line: nil, message: typeScriptProblem)
            }
            throw ScriptError(file: entry, line: nil, message: "no entry module: expected \(entryCandidates.joined(separator: ", ")), or a package.json main")
        }
        let reached: ReachableModules
        do {
            reached = try ReachableModules(folder: path, entry: main, modulePaths: modulePaths, limits: limits)
        } catch {
            throw ScriptError(file: entry + "/" + error.file, line: error.line, message: error.message)
        }
        var missing: [MissingModule] = []
        for var module in reached.missing {
            let base = ModuleResolution.join(ModuleResolution.directory(of: module.file), module.module) ?? ""
            if module.module.hasPrefix("."), [base + ".ts", base + "/index.ts"].contains(where: { isFile($0, in: path) }) {
                throw ScriptError(file: entry + "/" + module.file, line: module.line, message: "requires \(module.module), which \(typeScriptProblem)")
            }
            module.file = entry + "/" + module.file
            missing.append(module)
        }
        return Entry(source: .project(files: reached.files, entry: main), version: version(of: reached.files, entry: main), missing: missing)
    }

    /// A script file, or a folder with what a LeanEngine project's root has.
    static func isScript(at path: String) -> Bool {
        guard isDirectory(path) else { return scriptSuffixes.contains { path.hasSuffix($0) } }
        return (entryCandidates + ["package.json"]).contains { FileManager.default.fileExists(atPath: path + "/" + $0) }
    }

    /// The module a project folder loads from: an entry candidate, else its package's main.
    static func entryModule(in folder: String) -> String? {
        let isFile = { (path: String) in Self.isFile(path, in: folder) }
        if let found = entryCandidates.first(where: isFile) { return found }
        guard let data = FileManager.default.contents(atPath: folder + "/package.json"),
              let main = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["main"] as? String
        else { return isFile("index.js") ? "index.js" : nil }
        let path = main.hasPrefix("./") ? String(main.dropFirst(2)) : main
        return [path, path + ".js", path + "/index.js"].first(where: isFile)
    }

    /// The TypeScript files of a project (declaration files aside), by path within it; hidden
    /// folders and node_modules skipped. Walked only for a folder with no JavaScript entry.
    private static func typeScriptFiles(in root: String) -> Set<String> {
        var found: Set<String> = []
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            let name = relative.split(separator: "/").last ?? ""
            if name.hasPrefix(".") || name == "node_modules" {
                walker?.skipDescendants()
                continue
            }
            if relative.hasSuffix(".ts"), !relative.hasSuffix(".d.ts") { found.insert(relative) }
        }
        return found
    }

    /// A version over a set of files: the entry, then each path and text in path order.
    private static func version(of files: [String: String], entry: String? = nil) -> String {
        let ordered = files.keys.sorted()
        return version(of: (entry.map { [$0] } ?? []) + ordered + ordered.map { files[$0]! })
    }

    /// The first bytes of a SHA-256 over `parts`, each ended by a NUL.
    static func version(of parts: [String]) -> String {
        var hash = SHA256()
        for part in parts {
            hash.update(data: Data(part.utf8))
            if parts.count > 1 { hash.update(data: Data([0])) }
        }
        return hash.finalize().prefix(4).map { String(format: "%02x", $0) }.joined()
    }

    private static func isFile(_ path: String, in folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/" + path) && !isDirectory(folder + "/" + path)
    }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}

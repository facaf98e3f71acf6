import Crypto
import Foundation

/// What the hooks folder holds: loose `*.js` files, each a script, and folders, each a
/// LeanEngine project loaded from its entry module.
enum ScriptFolder {
    /// A project folder is refused past these: a vendored `node_modules` of a web app is not
    /// what hooks need.
    static let maxProjectBytes = 32 << 20
    static let maxProjectFiles = 10_000
    /// Where a LeanEngine project keeps its cloud code, in the order looked for. The
    /// package's `main` comes after: in LeanEngine projects it usually starts a web server.
    static let entryCandidates = ["cloud.js", "cloud/main.js", "cloud/index.js"]

    /// Loose scripts (`name.js`) and project folders (`name`), in name order.
    static func entries(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { name in
            guard !name.hasPrefix(".") else { return false }
            return name.hasSuffix(".js") || isDirectory(directory + "/" + name)
        }.sorted()
    }

    /// The entry a changed path belongs to: `name.js` for a loose script, the folder for
    /// anything inside a project; nil for what is neither.
    static func entry(containing path: String) -> String? {
        let first = path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? path
        guard !first.hasPrefix(".") else { return nil }
        return path.contains("/") || !first.hasSuffix(".js") ? first : path
    }

    /// Reads an entry: its source and a version that changes with any of its files. nil if
    /// the entry is gone.
    static func read(_ entry: String, in directory: String) throws(ScriptError) -> (source: ScriptContext.Source, version: String)? {
        let path = directory + "/" + entry
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard isDirectory(path) else {
            guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ScriptError(file: entry, line: nil, message: "cannot be read as UTF-8 text")
            }
            return (.file(source), version(of: [source]))
        }
        let files = try projectFiles(at: path, name: entry)
        guard let main = entryModule(of: files) else {
            throw ScriptError(file: entry, line: nil, message: "no entry module: expected \(entryCandidates.joined(separator: ", ")), or a package.json main")
        }
        let ordered = files.keys.sorted()
        return (.project(files: files, entry: main), version(of: [main] + ordered + ordered.map { files[$0]! }))
    }

    static func entryModule(of files: [String: String]) -> String? {
        if let found = entryCandidates.first(where: { files[$0] != nil }) { return found }
        guard let manifest = files["package.json"], let data = manifest.data(using: .utf8),
              let main = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["main"] as? String
        else { return files["index.js"] != nil ? "index.js" : nil }
        let path = main.hasPrefix("./") ? String(main.dropFirst(2)) : main
        return [path, path + ".js", path + "/index.js"].first { files[$0] != nil }
    }

    /// The `.js` and `.json` files of a project, by path within it; hidden files skipped.
    private static func projectFiles(at root: String, name: String) throws(ScriptError) -> [String: String] {
        var files: [String: String] = [:]
        var bytes = 0
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            let parts = relative.split(separator: "/")
            if parts.contains(where: { $0.hasPrefix(".") }) { continue }
            guard relative.hasSuffix(".js") || relative.hasSuffix(".json") else { continue }
            guard let text = try? String(contentsOfFile: root + "/" + relative, encoding: .utf8) else { continue }
            bytes += text.utf8.count
            files[relative] = text
            guard files.count <= maxProjectFiles, bytes <= maxProjectBytes else {
                throw ScriptError(file: name, line: nil, message: "more than \(maxProjectFiles) files or \(maxProjectBytes >> 20) MB of JavaScript and JSON")
            }
        }
        return files
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

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}

import SwitchboardJSON

/// Where `require(name)` leads from a directory of a project, as Node resolves it, over the
/// project's files by path relative to its folder. The one copy of these rules: the server
/// runs it to find which packages a project needs, and each VM runs it for every `require`.
struct ModuleResolution {
    /// The file at a path, if there is one (`.js`, `.mjs` or `.json`).
    let contents: (String) -> String?

    /// The names LeanEngine projects require for the SDK: the prelude's `AV` answers them.
    static let sdkNames: Set<String> = ["leanengine", "leancloud-storage", "avoscloud-sdk", "avoscloud-sdk/lib/av", "leancloud-realtime"]

    /// The path `name` resolves to when required from a module in `directory` ("" for the
    /// project's root); nil when nothing matches.
    func resolve(_ name: String, from directory: String) -> String? {
        if name.hasPrefix("./") || name.hasPrefix("../") || name == "." || name == ".." {
            return file(at: Self.join(directory, name))
        }
        if name.hasPrefix("/") { return file(at: Self.normalize(name)) }
        var directory = directory
        while true {
            if let found = file(at: Self.join(directory, "node_modules/" + name)) { return found }
            if directory.isEmpty { break }
            directory = Self.directory(of: directory)
        }
        // Cloud Code 1.x required a project's own files by paths from its root: 'cloud/mchat'.
        return file(at: Self.normalize(name))
    }

    /// A file, or a folder's package main or index, at `base`.
    private func file(at base: String?) -> String? {
        guard let base else { return nil }
        for candidate in [base, base + ".js", base + ".json", base + ".mjs"] where !candidate.isEmpty && contents(candidate) != nil {
            return candidate
        }
        if let manifest = contents(Self.join(base, "package.json") ?? ""), let main = Self.main(of: manifest),
           let target = Self.join(base, main) {
            for candidate in [target, target + ".js", target + ".json", target + "/index.js"] where contents(candidate) != nil {
                return candidate
            }
        }
        return ["index.js", "index.json"].lazy.compactMap { Self.join(base, $0) }.first { contents($0) != nil }
    }

    /// The `main` a package's manifest names, if any.
    private static func main(of manifest: String) -> String? {
        guard case .string(let main)? = (try? JSONValue(parsing: manifest))?["main"] else { return nil }
        return main
    }

    /// `path` with `.` and `..` taken out; nil if it climbs above the project's root.
    static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    static func join(_ directory: String, _ path: String) -> String? {
        normalize(directory.isEmpty ? path : directory + "/" + path)
    }

    /// The directory of a path within the project ("" at the root).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}

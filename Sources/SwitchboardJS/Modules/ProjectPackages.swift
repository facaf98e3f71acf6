import Foundation

/// The packages a project needs from outside its folder, found as Node's `NODE_PATH` finds
/// them. From the entry on, every module a file names (`ModuleSpecifiers`) that the folder
/// lacks is looked for in the folders of `hooks.modulePaths`, and the files read there join
/// the project under its `node_modules/`, as if installed in it; scripts never reach the
/// disk themselves. What is found nowhere is listed with the file and line that names it.
struct ProjectPackages {
    let files: [String: String]
    let missing: [MissingModule]
    /// Whether any file came from outside the project.
    let addedPackages: Bool

    /// Follows the modules named from `entry` on, over `files` and the `modulePaths` folders;
    /// throws past `maxBytes` of files in all.
    init(files: [String: String], entry: String, modulePaths: [String], maxBytes: Int) throws(ScriptError) {
        let lookup = Lookup(files: files, roots: modulePaths, maxBytes: maxBytes)
        var missing: [MissingModule] = []
        let resolution = ModuleResolution(contents: lookup.contents)
        var queue = [entry]
        var seen: Set<String> = [entry]
        func follow(_ path: String) {
            if seen.insert(path).inserted { queue.append(path) }
        }
        while let path = queue.popLast() {
            guard !path.hasSuffix(".json"), let text = lookup.contents(path) else { continue }
            let directory = ModuleResolution.directory(of: path)
            for specifier in ModuleSpecifiers.scan(text) {
                let target = resolution.target(of: specifier.name, from: directory)
                switch target {
                case .file(let found): follow(found)
                case .core: continue
                case .sdk:
                    // The old SDK carried underscore as AV._: bring it if it is to be had.
                    if case .file(let found) = resolution.target(of: "underscore", from: "") { follow(found) }
                case .web, .unavailable:
                    missing.append(MissingModule(module: specifier.name, file: path, line: specifier.line, problem: target.problem ?? ""))
                }
            }
            if let overflow = lookup.overflow {
                throw ScriptError(file: overflow, line: nil, message: "past \(maxBytes >> 20) MB of JavaScript and JSON with the packages the project needs")
            }
        }
        self.files = lookup.files
        self.missing = missing.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
        addedPackages = lookup.readOutside > 0
    }

    /// The files of the project, then those read from the module paths as they are asked for.
    private final class Lookup {
        var files: [String: String]
        let roots: [String]
        let maxBytes: Int
        var bytes: Int
        var readOutside = 0
        /// The first file read past `maxBytes`.
        var overflow: String?
        /// Paths under node_modules/ looked for and not found in any root.
        private var absent: Set<String> = []
        /// Packages the project carries in its own node_modules: none of their files come
        /// from a root, or a package would be half one copy, half another.
        private let carried: Set<Substring>
        private static let prefix = "node_modules/"

        init(files: [String: String], roots: [String], maxBytes: Int) {
            self.files = files
            self.roots = roots
            self.maxBytes = maxBytes
            bytes = files.values.reduce(0) { $0 + $1.utf8.count }
            carried = Set(files.keys.compactMap { $0.hasPrefix(Self.prefix) ? Self.package(of: $0.dropFirst(Self.prefix.count)) : nil })
        }

        /// `name` or `@scope/name` at the start of a path inside node_modules/.
        private static func package(of path: Substring) -> Substring? {
            let parts = path.split(separator: "/", maxSplits: 2)
            guard let first = parts.first else { return nil }
            guard first.hasPrefix("@"), parts.count > 1 else { return first }
            return path.prefix(first.count + 1 + parts[1].count)
        }

        func contents(_ path: String) -> String? {
            if let text = files[path] { return text }
            guard path.hasPrefix(Self.prefix), !absent.contains(path), overflow == nil else { return nil }
            let inRoot = path.dropFirst(Self.prefix.count)
            if let package = Self.package(of: inRoot), carried.contains(package) { return nil }
            for root in roots {
                let file = root + "/" + inRoot
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
                      let text = try? String(contentsOfFile: file, encoding: .utf8)
                else { continue }
                bytes += text.utf8.count
                if bytes > maxBytes { overflow = file }
                files[path] = text
                readOutside += 1
                return text
            }
            absent.insert(path)
            return nil
        }
    }
}

import Foundation

/// The files a script's modules reach, read by the server and handed to its VM: scripts never
/// touch the disk. From the entry on, every module a file names (`ModuleSpecifiers`) is
/// resolved as Node would: in the project's folder, then, for a package the folder lacks, in
/// the folders of `hooks.modulePaths` as Node's `NODE_PATH` finds them, as if installed in the
/// project's `node_modules/`. What nothing names is not read (a web app's front-end files,
/// its tests); what is found nowhere is listed with the file and line that names it.
struct ReachableModules {
    let files: [String: String]
    let missing: [MissingModule]
    /// Whether any file came from `hooks.modulePaths`.
    let usesModulePaths: Bool

    /// Follows the modules named from `entry` on: `files` (a loose script's text), the files of
    /// `folder` (a project's), then the `modulePaths` folders; throws past the limits.
    init(
        folder: String?, files: [String: String] = [:], entry: String, modulePaths: [String], limits: (files: Int, bytes: Int)
    ) throws(ScriptError) {
        let lookup = Lookup(folder: folder, files: files, roots: modulePaths)
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
                switch resolution.target(of: specifier.name, from: directory) {
                case .file(let found): follow(found)
                // A web framework is said once, as the routes not run, when the VM loads it.
                case .core, .web: continue
                case .sdk:
                    // The old SDK carried underscore as AV._: bring it if it is to be had.
                    if case .file(let found) = resolution.target(of: "underscore", from: "") { follow(found) }
                case .unavailable(let problem):
                    missing.append(MissingModule(module: specifier.name, file: path, line: specifier.line, problem: problem))
                }
            }
            guard lookup.files.count <= limits.files, lookup.bytes <= limits.bytes else {
                throw ScriptError(file: path, line: nil, message: "reaches more than \(limits.files) files or \(limits.bytes >> 20) MB of JavaScript and JSON")
            }
        }
        self.files = lookup.files
        self.missing = missing.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
        usesModulePaths = lookup.readFromRoots
    }

    /// Files by path within the project, read the first time resolution asks for them.
    private final class Lookup {
        private(set) var files: [String: String]
        private(set) var bytes: Int
        private(set) var readFromRoots = false
        private let folder: String?
        private let roots: [String]
        /// Paths looked for and found nowhere.
        private var absent: Set<String> = []
        private static let packages = "node_modules/"

        init(folder: String?, files: [String: String], roots: [String]) {
            self.folder = folder
            self.files = files
            self.roots = roots
            bytes = files.values.reduce(0) { $0 + $1.utf8.count }
        }

        func contents(_ path: String) -> String? {
            if let text = files[path] { return text }
            guard !absent.contains(path) else { return nil }
            if let folder, let text = Self.read(folder + "/" + path, at: path) { return keep(text, at: path) }
            if path.hasPrefix(Self.packages), !carried(path) {
                let inRoot = path.dropFirst(Self.packages.count)
                for root in roots {
                    if let text = Self.read(root + "/" + inRoot, at: path) {
                        readFromRoots = true
                        return keep(text, at: path)
                    }
                }
            }
            absent.insert(path)
            return nil
        }

        private func keep(_ text: String, at path: String) -> String {
            files[path] = text
            bytes += text.utf8.count
            return text
        }

        /// Whether the project has the package of `path` in its own node_modules: then none of
        /// its files come from a root, or a package would be half one copy, half another.
        private func carried(_ path: String) -> Bool {
            guard let folder else { return false }
            let parts = path.dropFirst(Self.packages.count).split(separator: "/", maxSplits: 2)
            guard let first = parts.first else { return false }
            let package = first.hasPrefix("@") && parts.count > 1 ? first + "/" + parts[1] : first
            return ScriptFolder.isDirectory(folder + "/" + Self.packages + package)
        }

        /// A module's text: a regular file named `.js`, `.mjs` or `.json`, outside hidden folders.
        private static func read(_ file: String, at path: String) -> String? {
            guard [".js", ".mjs", ".json"].contains(where: { path.hasSuffix($0) }),
                  !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                  !ScriptFolder.isDirectory(file)
            else { return nil }
            return try? String(contentsOfFile: file, encoding: .utf8)
        }
    }
}

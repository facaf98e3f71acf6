import Foundation

/// An export folder on disk: JSON lines appended to its data files, and the manifest that
/// records how long each file is at the last position it records. Opening it cuts every file
/// back to that length, so whatever a killed run wrote past its last record goes, and is
/// written once when the same page is fetched again. Used by one task at a time.
final class ExportFolder {
    let path: String
    var manifest: ExportManifest
    private var handles: [String: FileHandle] = [:]
    private var written: Set<String> = []

    /// The folder at `path` (made if need be) for an export of `appID` at `server`; a folder
    /// holding another app's or server's export, or other files, is refused.
    init(path: String, server: String, appID: String) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let manifestPath = path + "/manifest.json"
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            // Files it does not record are emptied before they are written: none may be someone's.
            guard try FileManager.default.contentsOfDirectory(atPath: path).isEmpty else {
                throw ExportFailure("\(path) holds files but no export manifest: export into a new or empty folder")
            }
            manifest = ExportManifest(server: server, appId: appID)
            return
        }
        let found: ExportManifest
        do {
            found = try JSONDecoder().decode(ExportManifest.self, from: data)
        } catch {
            throw ExportFailure("\(manifestPath) is not an export manifest this version reads: \(error)")
        }
        guard found.format == ExportManifest.formatName, found.version == 1 else {
            throw ExportFailure("\(manifestPath) is a \(found.format) version \(found.version), not an export this version writes")
        }
        guard found.server == server, found.appId == appID else {
            throw ExportFailure("\(path) holds the export of app \(found.appId) at \(found.server); export \(appID) at \(server) into another folder")
        }
        manifest = found
        for (file, length) in found.state.files.sorted(by: { $0.key < $1.key }) {
            try cut(file, to: length)
        }
    }

    deinit {
        for handle in handles.values { try? handle.close() }
    }

    /// Appends the lines (none makes the file, empty: a class with no objects was exported);
    /// the manifest records the new length at the next `save`.
    func append(_ lines: [String], to file: String) throws {
        var bytes = Data()
        for line in lines {
            bytes.append(contentsOf: line.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        let handle = try self.handle(file)
        guard !bytes.isEmpty else { return }
        try handle.write(contentsOf: bytes)
        manifest.state.files[file, default: 0] += bytes.count
        written.insert(file)
    }

    /// Makes what was appended durable, then replaces the manifest: written aside, flushed,
    /// renamed over the old one. A kill at any moment leaves the old manifest or the new one.
    func save() throws {
        for file in written { try handles[file]?.synchronize() }
        written.removeAll()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(manifest)
        let aside = path + "/manifest.json.new"
        guard FileManager.default.createFile(atPath: aside, contents: nil) else { throw ExportFailure("cannot write \(aside)") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: aside))
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(aside, path + "/manifest.json") == 0 else { throw ExportFailure("cannot replace \(path)/manifest.json: \(String(cString: strerror(errno)))") }
    }

    /// The file's handle, at its end. A file the manifest does not know yet starts empty:
    /// anything in it came from a run killed before it recorded the file.
    private func handle(_ file: String) throws -> FileHandle {
        if let handle = handles[file] { return handle }
        let full = path + "/" + file
        if manifest.state.files[file] == nil {
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: full, contents: nil) else { throw ExportFailure("cannot write \(full)") }
            manifest.state.files[file] = 0
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: full))
        try handle.seekToEnd()
        handles[file] = handle
        return handle
    }

    private func cut(_ file: String, to length: Int) throws {
        let full = path + "/" + file
        let size = (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? nil
        guard let size, size >= length else {
            throw ExportFailure("\(full) is shorter than the manifest records (\(length) bytes): the folder was changed or damaged; export into a new folder")
        }
        guard size > length else { return }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: full))
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(length))
    }
}

/// Why an export stopped, in words for whoever runs it.
struct ExportFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

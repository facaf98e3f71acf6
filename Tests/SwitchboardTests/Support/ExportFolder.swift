import Foundation
import SwitchboardJSON

/// An export folder as `switchboard leancloud export` writes it (docs/leancloud-export-format.md),
/// made by hand for import tests: a manifest and JSON-lines files of rows, with lines that
/// are not rows where a test wants them.
struct ExportFolder {
    let path: String

    init(at path: String = TestServer.temporaryDirectory() + "/export", finished: Bool = true) throws {
        self.path = path
        for folder in ["classes", "conversations", "messages"] {
            try FileManager.default.createDirectory(atPath: path + "/" + folder, withIntermediateDirectories: true)
        }
        let manifest: JSONValue = [
            "format": "switchboard-leancloud-export", "version": 1, "server": "https://app.example", "appId": "app",
            "runs": [["started": "2026-11-20T10:00:00.000Z", "finished": finished ? "2026-11-20T11:00:00.000Z" : .null, "since": .null]],
            "state": ["files": [:]],
        ]
        try manifest.jsonString.write(toFile: path + "/manifest.json", atomically: true, encoding: .utf8)
    }

    /// Records each file's length in the manifest's `state.files`, as the exporter does at
    /// each position it saves.
    func recordLengths() throws {
        var manifest = try JSONValue(parsing: String(contentsOfFile: path + "/manifest.json", encoding: .utf8)).objectValue ?? [:]
        var lengths: [String: JSONValue] = [:]
        for folder in ["classes", "conversations", "messages"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: path + "/" + folder) {
                let size = try FileManager.default.attributesOfItem(atPath: path + "/\(folder)/\(name)")[.size] as? Int ?? 0
                lengths["\(folder)/\(name)"] = .int(Int64(size))
            }
        }
        manifest["state"] = ["files": .object(lengths)]
        try JSONValue.object(manifest).jsonString.write(toFile: path + "/manifest.json", atomically: true, encoding: .utf8)
    }

    /// Appends lines to `file` (a path inside the folder): rows as JSON, text as it is.
    func append(_ file: String, _ lines: [Line]) throws {
        let url = URL(fileURLWithPath: path + "/" + file)
        if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0.text + "\n" }.joined().utf8))
    }

    func append(_ file: String, rows: [JSONValue]) throws {
        try append(file, rows.map(Line.row))
    }

    enum Line {
        case row(JSONValue)
        /// Written as it is: a broken line.
        case raw(String)

        var text: String {
            switch self {
            case .row(let row): row.jsonString
            case .raw(let text): text
            }
        }
    }

    /// An ISO date for `createdAt` and `updatedAt`.
    static func iso(_ milliseconds: Int64) -> JSONValue {
        .string(ISODate.string(milliseconds: milliseconds))
    }
}

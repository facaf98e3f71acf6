import ArgumentParser
import Foundation
import SwitchboardData
import SwitchboardJSON

/// The files `leancloud import` reads, in the order it stores what they hold: conversations
/// before what belongs to them (roles, lists, subscribers, messages), then devices, then
/// app classes. A folder with a `manifest.json` is an export folder (see
/// docs/leancloud-export-format.md); any other file is one class named by the file, as
/// LeanCloud's console exports them (`_Conversation.jsonl`, `Blacklist.json`,
/// `Blacklist.0.jsonl`), and a folder or an archive of them its export files
/// (`ImportInput`).
struct ImportPlan {
    enum Kind: Equatable {
        case conversations
        case roles
        case lists
        case subscribers
        case messages
        case installations
        case appClass(String)

        /// What the file holds, for the summary.
        var label: String {
            switch self {
            case .conversations: ConversationClass.name
            case .roles: Self.memberInfoClass
            case .lists: "blocked and silenced members"
            case .subscribers: "subscribers"
            case .messages: "messages"
            case .installations: Self.installationClass
            case .appClass(let name): name
            }
        }

        fileprivate var order: Int {
            switch self {
            case .conversations: 0
            case .roles: 1
            case .lists: 2
            case .subscribers: 3
            case .messages: 4
            case .installations: 5
            case .appClass: 6
            }
        }

        static let memberInfoClass = "_ConversationMemberInfo"
        static let installationClass = "_Installation"

        /// The kind of a class's file.
        static func ofClass(_ name: String) -> Kind {
            switch name {
            case ConversationClass.name: .conversations
            case memberInfoClass: .roles
            case installationClass: .installations
            default: .appClass(name)
            }
        }
    }

    struct File {
        var input: ImportInput
        var kind: Kind
        /// Where reading stops: the length an unfinished export recorded for the file.
        var byteLimit: Int?

        /// How reports name it.
        var path: String { input.place }
    }

    /// In the order to import them.
    private(set) var files: [File] = []

    /// About how many messages the plan's files hold, from the sizes of those on disk as
    /// they are (an archive's entries count none): an export's message line takes 250 bytes
    /// or more, so this errs low.
    var expectedMessages: Int {
        files.reduce(0) { sum, file in
            guard file.kind == .messages, file.input.place == file.input.file,
                  let size = (try? FileManager.default.attributesOfItem(atPath: file.input.file)[.size]) as? Int
            else { return sum }
            return sum + min(size, file.byteLimit ?? size) / 250
        }
    }
    /// Things to know about the inputs before their summaries (an export that did not finish).
    private(set) var warnings: [String] = []
    /// Whether some input could not be read at all (a damaged archive), which was printed.
    private(set) var damaged = false

    init(paths: [String]) throws {
        var found: [File] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw ValidationError("\(path) does not exist") }
            if isFolder.boolValue, FileManager.default.fileExists(atPath: path + "/manifest.json") {
                found += try exportFolder(path)
            } else {
                let (inputs, problems) = try ImportInput.list([path])
                damaged = damaged || problems
                for input in inputs {
                    if let reason = input.notImported {
                        warnings.append("\(input.place): skipped: \(reason)")
                    } else {
                        found.append(File(input: input, kind: .ofClass(input.className)))
                    }
                }
            }
        }
        // Stable: within a kind, files keep the order they were named in.
        files = found.enumerated().sorted { ($0.element.kind.order, $0.offset) < ($1.element.kind.order, $1.offset) }.map(\.element)
    }

    /// An export folder's files; its manifest must be one this import reads.
    private mutating func exportFolder(_ path: String) throws -> [File] {
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        let manifestPath = folder + "/manifest.json"
        let manifest: JSONValue
        do {
            manifest = try JSONValue(parsing: String(contentsOfFile: manifestPath, encoding: .utf8))
        } catch {
            throw ValidationError("\(manifestPath) is not JSON: \(error)")
        }
        guard manifest["format"]?.stringValue == "switchboard-leancloud-export" else {
            throw ValidationError("\(manifestPath) is not the manifest of a switchboard leancloud export (its format is not switchboard-leancloud-export)")
        }
        guard manifest["version"]?.int64Value == 1 else {
            throw ValidationError("\(manifestPath) is of export version \(manifest["version"]?.jsonString ?? "none"); this import reads version 1")
        }
        // A run under way or killed may have written past its last recorded position, a line
        // cut short perhaps: only what the manifest records is read.
        var limits: [String: Int]?
        if let last = manifest["runs"]?.arrayValue?.last, (last["finished"] ?? .null) == .null {
            warnings.append("\(folder): its last export run did not finish; importing what it recorded (run the export again to complete it, then import again)")
            limits = (manifest["state"]?["files"]?.objectValue ?? [:]).compactMapValues { $0.int64Value.map(Int.init) }
        }
        func file(_ path: String, _ kind: Kind? = nil) -> File {
            let input = ImportInput.file(folder + "/" + path, path: path)
            return File(input: input, kind: kind ?? .ofClass(input.className), byteLimit: limits.map { $0[path] ?? 0 })
        }
        var files = try Self.exportFiles(in: folder, "classes").map { file($0) }
        for (name, kind) in [("lists.jsonl", Kind.lists), ("subscribers.jsonl", .subscribers)] {
            let path = "conversations/" + name
            if FileManager.default.fileExists(atPath: folder + "/" + path) { files.append(file(path, kind)) }
        }
        files += try Self.exportFiles(in: folder, "messages").map { file($0, .messages) }
        return files
    }

    /// The export files of an export folder's `sub` folder in name order (`sub/name`), none
    /// if it has no such folder.
    private static func exportFiles(in folder: String, _ sub: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: folder + "/" + sub) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder + "/" + sub).sorted()
            .map { sub + "/" + $0 }
            .filter(ImportInput.isExportFile)
    }
}

import ArgumentParser
import Foundation
import SwitchboardData
import SwitchboardJSON

/// The files `leancloud import` reads, in the order it stores what they hold: conversations
/// before what belongs to them (roles, lists, subscribers, messages), then devices, then
/// app classes. A folder with a `manifest.json` is an export folder (see
/// docs/leancloud-export-format.md); any other file is one class named by the file, as
/// LeanCloud's console exports them (`_Conversation.jsonl`, `Blacklist.json`), and a folder
/// of them its `.jsonl` and `.json` files.
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

    struct File: Equatable {
        var path: String
        var kind: Kind
        /// Where reading stops: the length an unfinished export recorded for the file.
        var byteLimit: Int?
    }

    /// In the order to import them.
    private(set) var files: [File] = []
    /// Things to know about the inputs before their summaries (an export that did not finish).
    private(set) var warnings: [String] = []

    init(paths: [String]) throws {
        var found: [File] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw ValidationError("\(path) does not exist") }
            if isFolder.boolValue, FileManager.default.fileExists(atPath: path + "/manifest.json") {
                found += try exportFolder(path)
            } else {
                found += try Self.exportFiles(at: path).map { File(path: $0, kind: .ofClass(Self.className(of: $0))) }
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
        func file(_ path: String, _ kind: Kind) -> File {
            File(path: path, kind: kind, byteLimit: limits.map { $0[String(path.dropFirst(folder.count + 1))] ?? 0 })
        }
        var files = try Self.exportFiles(at: folder + "/classes", ifPresent: true).map { file($0, .ofClass(Self.className(of: $0))) }
        for (name, kind) in [("lists.jsonl", Kind.lists), ("subscribers.jsonl", .subscribers)] {
            let path = folder + "/conversations/" + name
            if FileManager.default.fileExists(atPath: path) { files.append(file(path, kind)) }
        }
        files += try Self.exportFiles(at: folder + "/messages", ifPresent: true).map { file($0, .messages) }
        return files
    }

    /// A file, or the export files of a folder in name order.
    private static func exportFiles(at path: String, ifPresent: Bool = false) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            if ifPresent { return [] }
            throw ValidationError("\(path) does not exist")
        }
        guard isFolder.boolValue else { return [path] }
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".json") }
            .map { path + "/" + $0 }
    }

    /// `Blacklist.jsonl` holds Blacklist.
    private static func className(of path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent.split(separator: ".").first.map(String.init) ?? ""
    }
}

import ArgumentParser
import Foundation
import SwitchboardData
import SwitchboardJSON
import SwitchboardServer

/// `switchboard leancloud import PATH...`: an app's LeanStorage classes, as LeanCloud's
/// console exported them, into the app data store of the config's database.
struct LeanCloudImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import LeanCloud export files into the configured database: each file one class, named by the file (Blacklist.jsonl is Blacklist); JSON lines, a JSON array or {\"results\": [...]}. Objects keep their objectId and times; one already there is kept as it is, so running it again stores nothing twice."
    )

    @Argument(help: "Export files, or folders of them (.jsonl and .json).")
    var paths: [String]

    @Option(name: .shortAndLong, help: "Config file (YAML). Default: config/switchboard.yaml when it exists.")
    var config: String?

    @Flag(help: "Read everything and report, storing nothing.")
    var dryRun = false

    /// Classes that are IM data, not app data: their import is not there yet.
    static let imClasses: Set<String> = [ConversationClass.name, "_ConversationMemberInfo", "_Installation"]
    static let batchSize = 1000

    func run() async throws {
        let settings = try ServerConfig.load(explicitPath: config)
        let files = try paths.flatMap(Self.files(at:))
        guard !files.isEmpty else { throw ValidationError("no .jsonl or .json files in \(paths.joined(separator: ", "))") }
        let store = dryRun ? nil : try await ConfiguredStore.open(settings, for: "leancloud-import")
        var failed = false
        for file in files {
            let className = URL(fileURLWithPath: file).lastPathComponent.split(separator: ".").first.map(String.init) ?? ""
            if Self.imClasses.contains(className) {
                print("\(file): skipped: \(className) is IM data, which this import does not bring yet")
                continue
            }
            do {
                let tally = try await Self.importClass(className, from: file, into: store)
                print("\(file): \(className): \(tally.read) read, " + (dryRun ? "nothing stored (dry run)" : "\(tally.stored) stored, \(tally.read - tally.stored) already there")
                    + (tally.unreadable > 0 ? ", \(tally.unreadable) unreadable" : ""))
                failed = failed || tally.unreadable > 0
            } catch {
                print("\(file): not imported: \(error)")
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    struct Tally {
        var read = 0
        var stored = 0
        var unreadable = 0
    }

    /// Reads the file's rows a batch at a time and stores those whose ids are new; each row
    /// it cannot read is printed with its file:line and why.
    static func importClass(_ className: String, from file: String, into store: (any DocumentStore)?) async throws -> Tally {
        var reader = try ExportFileReader(path: file)
        var tally = Tally()
        var batch: [StoredDocument] = []
        let now = LocalAppData.wallMilliseconds()
        func flush() async throws {
            if let store { tally.stored += try await store.insertNew(batch) }
            batch.removeAll(keepingCapacity: true)
        }
        while let item = try reader.next() {
            switch item {
            case .unreadable(let place, let reason):
                tally.unreadable += 1
                print("\(place): skipped: \(reason)")
            case .row(let row, let place):
                do {
                    batch.append(try StoredDocument(importing: row, className: className, now: now))
                    tally.read += 1
                } catch {
                    tally.unreadable += 1
                    print("\(place): skipped: \(error.message)")
                }
                if batch.count == batchSize { try await flush() }
            }
        }
        try await flush()
        return tally
    }

    /// A file, or the export files of a folder in name order.
    private static func files(at path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw ValidationError("\(path) does not exist") }
        guard isFolder.boolValue else { return [path] }
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".json") }
            .map { path + "/" + $0 }
    }
}

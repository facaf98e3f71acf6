import ArgumentParser
import Foundation
import SwitchboardServer

/// `switchboard leancloud import PATH...`: an app's data as LeanCloud had it, from an export
/// folder of `switchboard leancloud export` or the console's export files, into the
/// config's database.
struct LeanCloudImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an app's data from LeanCloud into the configured database: an export folder of `switchboard leancloud export` (conversations, roles, blocked and silenced members, subscribers, message history, installations, classes), or the console's export files, each file one class named by the file (_Conversation.jsonl, Blacklist.json, Blacklist.0.jsonl), loose, in folders, or in the .tar.gz or zip the export comes in; JSON lines, a JSON array or {\"results\": [...]}. Ids and times are kept; of two versions of an object the newer stays, so running it again, or over overlapping exports, stores nothing twice. Imported history counts as read.",
        discussion: "The order: conversations, their roles, lists and subscribers, messages, installations, then app classes. Every member's read position in a conversation moves to its newest imported message: history from before the move is read and is not delivered again; what arrives after counts as unread as usual."
    )

    @Argument(help: "Export folders (with manifest.json), export files, folders of them (.jsonl and .json), or archives of them (.tar.gz, .tgz, .zip).")
    var paths: [String]

    @Option(name: .shortAndLong, help: "Config file (YAML). Default: config/switchboard.yaml when it exists.")
    var config: String?

    @Flag(help: "Read everything and report, storing nothing.")
    var dryRun = false

    func run() async throws {
        let settings = try ServerConfig.load(explicitPath: config)
        let plan = try ImportPlan(paths: paths)
        guard !plan.files.isEmpty else { throw ValidationError("no .jsonl or .json files in \(paths.joined(separator: ", "))") }
        let store = dryRun ? nil : try await ConfiguredStore.open(settings, for: "leancloud-import")
        let complete = await LeanCloudImporter(store: store).run(plan)
        if !complete { throw ExitCode.failure }
    }
}

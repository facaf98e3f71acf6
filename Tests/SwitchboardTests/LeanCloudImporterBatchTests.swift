import Foundation
@testable import SwitchboardCLI
import SwitchboardCore
import SwitchboardStore
import Testing

/// `LeanCloudImporter` in process, with batches of a few rows: one batch written while the
/// next is made ready and the one after is read, each written in its turn.
@Suite struct LeanCloudImporterBatchTests {
    @Test func historyInManyBatchesIsStoredInTheExportsOrder() async throws {
        let export = try ConfigAndCLITests.teamExport()
        let store = try SQLiteStore(path: TestServer.temporaryDirectory() + "/switchboard.sqlite")
        var lines: [String] = []
        var importer = LeanCloudImporter(store: store)
        importer.batchSize = 1
        importer.messageBatchSize = 3
        importer.print = { lines.append($0) }
        let complete = await importer.run(try ImportPlan(paths: [export.path]))
        #expect(!complete, "the export's broken rows are told")
        #expect(lines.contains { $0.hasSuffix("messages/000001.jsonl: messages: 13 read, 11 stored, 0 already there, 2 skipped, 2 unreadable") }, "\(lines)")
        let history = try await store.history(HistoryQuery(
            scope: .conversation(ConfigAndCLITests.group), limit: 20, direction: .newer, start: nil, end: nil, messageType: nil
        ))
        // m4 and m5 share a time: the file's order decides, as in LeanCloud's history.
        #expect(history.map(\.id) == (0..<10).map { "m\($0)" })
    }
}

extension LeanCloudImporterBatchTests {
    /// macOS leaves `._` files beside each file it copies: an export folder's are not read.
    @Test func hiddenFilesInAnExportFolderAreNotRead() throws {
        let export = try ConfigAndCLITests.teamExport()
        try Data([0, 5, 22, 7, 0xff]).write(to: URL(fileURLWithPath: export.path + "/messages/._000001.jsonl"))
        let paths = try ImportPlan(paths: [export.path]).files.map(\.path)
        #expect(paths.contains { $0.hasSuffix("messages/000001.jsonl") })
        #expect(!paths.contains { $0.contains("._") }, "\(paths)")
    }
}

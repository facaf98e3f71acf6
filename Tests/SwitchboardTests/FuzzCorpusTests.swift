import Foundation
import SwitchboardFuzz
import Testing

/// The fuzzer's seeds and kept findings, replayed through its checks on every test run
/// (`scripts/fuzz` runs the fuzzer itself).
@Suite(.storeBlind) struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus").path

    @Test func everySavedInputPassesTheChecks() throws {
        let files = try FuzzCorpus.files(at: Self.corpus)
        #expect(files.count >= 19)
        for file in files {
            FuzzChecks.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        }
    }
}

import Foundation
import SwitchboardCore
import Testing

/// Message ids keep LeanCloud's shape, never repeat, and sort by the time they were made.
@Suite(.storeBlind) struct MessageIDTests {
    @Test func idsAreDistinctAndInLeanCloudsShape() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let ids = (0..<100_000).map { _ in Identifiers.messageID() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 22 && $0.allSatisfy(allowed.contains) })
        // After the time, consecutive ids share no visible pattern: each position takes many values.
        for position in 7..<22 {
            let characters = Set(ids.prefix(1000).map { Array($0)[position] })
            #expect(characters.count > 50)
        }
    }

    /// The index on message ids then grows at its end, as the messages do.
    @Test func aLaterIDSortsAfterAnEarlierOne() async throws {
        var ids: [String] = []
        for _ in 0..<20 {
            ids.append(Identifiers.messageID())
            try await Task.sleep(for: .milliseconds(2))
        }
        // In byte order, as SQLite compares them.
        #expect(ids.map { Array($0.utf8) } == ids.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    }
}

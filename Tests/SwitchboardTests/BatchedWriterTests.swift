import Foundation
import GRDB
@testable import SwitchboardStore
import Testing

/// Writes that share a transaction: each commits or fails on its own, and its caller hears
/// back only once it is on disk.
@Suite(.storeBlind) struct BatchedWriterTests {
    private func pool() throws -> DatabasePool {
        let path = TestServer.temporaryDirectory() + "/batched.sqlite"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: path)
        try pool.write { try $0.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        return pool
    }

    /// Holds the writer busy so that the writes queued meanwhile go into one transaction.
    private func holdWriter(_ writer: BatchedWriter) -> Task<Void, any Error> {
        Task { try await writer.write { _ in Thread.sleep(forTimeInterval: 0.2) } }
    }

    @Test func aFailingWriteLeavesTheOthersInItsBatch() async throws {
        let pool = try pool()
        let writer = BatchedWriter(database: pool, fileGuard: DatabaseFileGuard(path: pool.path))
        try await writer.write { try $0.execute(sql: "INSERT INTO item (id) VALUES (7)") }
        let holding = holdWriter(writer)
        try await Task.sleep(for: .milliseconds(50))
        let results = await withTaskGroup(of: (Int, Bool).self) { group in
            for id in 1...20 {
                group.addTask {
                    // 7 is taken: that write fails and its first insert is undone; the other nineteen stand.
                    let written = (try? await writer.write { (db: Database) -> Void in
                        try db.execute(sql: "INSERT INTO item (id) VALUES (?)", arguments: [id + 100])
                        try db.execute(sql: "INSERT INTO item (id) VALUES (?)", arguments: [id])
                    }) != nil
                    return (id, written)
                }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        try await holding.value
        #expect(results.filter { !$0.value }.map(\.key) == [7])
        #expect(try await pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item") } == 39)
        #expect(try await pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item WHERE id = 107") } == 0)
    }

    @Test func eachWriteIsCommittedWhenItsCallerHearsBack() async throws {
        let pool = try pool()
        let writer = BatchedWriter(database: pool, fileGuard: DatabaseFileGuard(path: pool.path))
        let holding = holdWriter(writer)
        try await Task.sleep(for: .milliseconds(50))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...50 {
                group.addTask {
                    try await writer.write { try $0.execute(sql: "INSERT INTO item (id) VALUES (?)", arguments: [id]) }
                    // Another connection sees it at once: it was committed, not just run.
                    let seen = try await pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item WHERE id = ?", arguments: [id]) }
                    #expect(seen == 1)
                }
            }
            try await group.waitForAll()
        }
        try await holding.value
    }
}

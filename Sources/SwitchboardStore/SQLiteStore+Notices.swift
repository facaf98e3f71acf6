import Foundation
import GRDB
import SwitchboardCore

extension SQLiteStore: NoticeStore {
    public func keepNotice(_ command: [UInt8], for clientIDs: [String], at time: Int64) async throws {
        guard !clientIDs.isEmpty else { return }
        try await writer.write { db in
            for clientID in clientIDs {
                try db.executeCached(
                    sql: "INSERT INTO notice (client_id, created_at, command) VALUES (?, ?, ?)",
                    arguments: [clientID, time, Data(command)]
                )
            }
        }
    }

    public func notices(for clientID: String, since time: Int64, limit: Int) async throws -> [[UInt8]] {
        try await read { db in
            try Data.fetchAll(
                db, sql: "SELECT command FROM notice WHERE client_id = ? AND created_at >= ? ORDER BY seq LIMIT ?",
                arguments: [clientID, time, limit]
            ).map { Array($0) }
        }
    }
}

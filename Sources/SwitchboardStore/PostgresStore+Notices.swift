import Foundation
import PostgresNIO
import SwitchboardCore

extension PostgresStore: NoticeStore {
    public func keepNotice(_ command: [UInt8], for clientIDs: [String], at time: Int64) async throws {
        guard !clientIDs.isEmpty else { return }
        try await run(
            """
            INSERT INTO notice (client_id, created_at, command)
            SELECT client, \(time), \(ByteBuffer(bytes: command)) FROM unnest(\(clientIDs)::text[]) AS client
            """
        )
    }

    public func notices(for clientID: String, since time: Int64, limit: Int) async throws -> [[UInt8]] {
        try await all(
            "SELECT command FROM notice WHERE client_id = \(clientID) AND created_at >= \(time) ORDER BY seq LIMIT \(limit)"
        ).compactMap { $0.data("command").map { Array($0) } }
    }
}

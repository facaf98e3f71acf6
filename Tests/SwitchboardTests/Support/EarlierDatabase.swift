import Foundation
import GRDB
@testable import SwitchboardStore

/// A SQLite file as an earlier version left it: migrated up to `migration` and holding the rows
/// `sql` inserts, for a test of what the next migrations make of it. Returns its path.
func earlierDatabase(upTo migration: String, rows sql: String) async throws -> String {
    let path = TestServer.temporaryDirectory() + "/upgraded.sqlite"
    let old = try DatabaseQueue(path: path)
    try await Migrations.migrator.migrate(old, upTo: migration)
    try await old.write { try $0.execute(sql: sql) }
    try old.close()
    return path
}

/// Rows for `earlierDatabase`: conversation c1 of alice and bob, created at `t`, and bob's
/// device "phone".
func aliceAndBobInC1(at t: Int64) -> String {
    """
    INSERT INTO conversation (id, kind, creator, created_at, updated_at) VALUES ('c1', 1, 'alice', \(t), \(t));
    INSERT INTO conversation_member (conversation_id, client_id, position, joined_at) VALUES ('c1', 'alice', 0, \(t)), ('c1', 'bob', 1, \(t));
    INSERT INTO client_device (client_id, device_key, last_seen_at) VALUES ('bob', 'phone', \(t));
    """
}

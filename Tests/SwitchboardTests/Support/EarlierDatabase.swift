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

import Foundation
import GRDB
import SwitchboardCore

/// `MessageStore` over SQLite: the server's is one file in WAL mode (one writer, concurrent
/// readers); tests may use one in memory (`inMemory()`). Each role's methods are in a file
/// of their own, as `PostgresStore`'s are.
public final class SQLiteStore: MessageStore, Sendable {
    // `Sendable` is stated here: the roles, each conformed to in a file of its own, would
    // otherwise imply it there, and Swift takes a class's `Sendable` only in its own file.

    /// A pool on the server's file; a queue (one connection) in memory.
    let database: any DatabaseWriter
    let writer: BatchedWriter
    /// Nil in memory, where there is no file to lose.
    private let fileGuard: DatabaseFileGuard?
    /// Conversations with their members, read on every message sent.
    let cache = ConversationCache(capacity: 100_000)
    /// The `dt` tokens of recent messages, which a message sent again is looked up in.
    let clientTokens = RecentClientTokens()

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public convenience init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: path, configuration: Self.configuration)
        // Once the pool has made the file: the guard remembers which file it is.
        try self.init(database: pool, fileGuard: DatabaseFileGuard(path: path))
    }

    /// An empty store in memory, gone once released, for tests that need a store but not its
    /// file. Its one connection serves reads and writes in turn, where the file's pool reads
    /// beside the writer; what a caller sees of a committed write is the same.
    public static func inMemory() throws -> SQLiteStore {
        try SQLiteStore(database: DatabaseQueue(configuration: configuration), fileGuard: nil)
    }

    private init(database: any DatabaseWriter, fileGuard: DatabaseFileGuard?) throws {
        self.database = database
        self.fileGuard = fileGuard
        writer = BatchedWriter(database: database, fileGuard: fileGuard)
        try Migrations.migrator.migrate(database)
        try database.write { try $0.execute(sql: HistoryIndex.create) }
    }

    /// How long a connection waits for the lock another holds before giving up.
    static let busyTimeout: TimeInterval = 5

    /// Pages of write-ahead log between checkpoints: 16 MB of SQLite's 4 KB pages.
    static let checkpointPages = 4096

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // WAL makes a commit durable at the next checkpoint with NORMAL; a power cut can
            // lose the last transactions but never corrupts the file. Acknowledged messages
            // survive a crash of the process, which is what the ack promises.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // A checkpoint copies every page the log holds back into the file, and syncs both:
            // at SQLite's default of every 1,000 pages (4 MB) it ran dozens of times a second
            // under load, copying the same index pages again each time. Not much further: the
            // writer waits for the checkpoint, and so does every message behind it (at 64 MB
            // the 99th percentile of a loaded server's latency grew by a third). A checkpoint
            // that resets the log also cuts its file back to the same size, so a burst does
            // not keep more disk space for good, and the log does not shrink and grow again
            // between checkpoints (which cost as much as the checkpoints saved).
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
            try db.execute(sql: "PRAGMA journal_size_limit = \(checkpointPages * 4096)")
        }
        return configuration
    }

    /// False once the database file was deleted or replaced under the running server:
    /// writes are then refused (see `DatabaseFileGuard`).
    public var acceptsWrites: Bool { fileGuard?.isBroken != true }

    // MARK: Helpers

    /// The messages a client may see, given the client's id twice: every member sees a
    /// message to everyone; one to chosen members is theirs and the sender's.
    static let visibleToClient = """
        (message.audience IS NULL OR message.sender = ? OR EXISTS (SELECT 1 FROM json_each(message.audience) WHERE json_each.value = ?))
        """

    /// Every read goes through here. GRDB's `read` has a blocking overload that Swift picks
    /// when the closure's result is not `Sendable` (rows, say), even under `await`: it parks
    /// a cooperative thread on the reader pool, and a few at once hung the server. This one
    /// is only ever the suspending kind.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await database.read(body)
    }

    /// A list of `count` placeholders or more: lists are padded to a power of two (with
    /// NULLs, which `IN` never matches), so each statement is compiled and kept in the cache
    /// for a few lengths, not one per length a client can make up.
    static func placeholders(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: listLength(count)).joined(separator: ",") + ")"
    }

    static func padded(_ values: [some DatabaseValueConvertible]) -> StatementArguments {
        // As optional existentials: GRDB's initializer for a sequence of one type builds a key
        // path at run time on every call, a few per cent of a message's CPU time.
        var list = values.map { $0 as (any DatabaseValueConvertible)? }
        list += repeatElement(nil, count: listLength(values.count) - values.count)
        return StatementArguments(list)
    }

    /// Lists longer than this are split by the caller: well below SQLite's limit on
    /// placeholders (32,766) even once padded.
    static let maxListLength = 1024

    /// `values` in lists of at most `maxListLength`, one statement's worth each.
    static func listChunks<Value>(_ values: [Value]) -> [[Value]] {
        stride(from: 0, to: values.count, by: maxListLength).map { Array(values[$0..<min($0 + maxListLength, values.count)]) }
    }

    private static func listLength(_ count: Int) -> Int {
        count <= 1 ? 1 : 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
    }
}

import GRDB
import Synchronization

/// Runs the store's writes in shared transactions. Writes that arrive while a transaction is
/// committing go together into the next one. Under load many small commits (and as many hops
/// to the writer thread) become a few large ones; an idle store writes at once. One failing
/// write must not undo the others: if one fails, the transaction is rolled back and the
/// writes run again, each in its own savepoint. They do not start in savepoints because a
/// savepoint costs about as much as the small write it wraps, and writes rarely fail. Every
/// caller hears back only after the transaction holding its write has committed, and only
/// while the file committed to is still the database's (see `DatabaseFileGuard`).
///
/// After the disk fills, the write-ahead log must be emptied into the database and cut
/// back before anything else is written: otherwise it grows into whatever space is freed,
/// checkpoints keep failing for want of room to grow the database, and the disk fills again.
/// While that checkpoint fails for want of room, writes fail as the full disk made them fail.
/// From then on checkpoints come more often, keeping the log small.
final class BatchedWriter: Sendable {
    private let database: any DatabaseWriter
    /// Nil for a database in memory.
    private let fileGuard: DatabaseFileGuard?
    private let state = Mutex<(queued: [any BatchedWrite], draining: Bool)>(([], false))
    private let diskWasFull = Atomic<Bool>(false)

    init(database: any DatabaseWriter, fileGuard: DatabaseFileGuard?) {
        self.database = database
        self.fileGuard = fileGuard
    }

    /// Runs `work` in the next transaction; `queued` is called once it is in line, behind
    /// every write queued before and ahead of every write queued after.
    func write<Value: Sendable>(
        queued: @Sendable () -> Void = {}, _ work: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let startsDrain = state.withLock { state in
                state.queued.append(WriteJob(work: work, continuation: continuation))
                defer { state.draining = true }
                return !state.draining
            }
            queued()
            if startsDrain { Task { await self.drain() } }
        }
    }

    private func drain() async {
        while true {
            let jobs = state.withLock { state in
                defer { state.queued.removeAll(keepingCapacity: true) }
                if state.queued.isEmpty { state.draining = false }
                return state.queued
            }
            guard !jobs.isEmpty else { return }
            do {
                try fileGuard?.check()
                if diskWasFull.load(ordering: .relaxed), try await emptyLog() {
                    diskWasFull.store(false, ordering: .relaxed)
                }
                let failures = try await run(jobs)
                try fileGuard?.check()
                if failures.contains(where: Self.isDiskFull) { diskWasFull.store(true, ordering: .relaxed) }
                for job in jobs { job.finish(committing: nil) }
            } catch {
                if Self.isDiskFull(error) { diskWasFull.store(true, ordering: .relaxed) }
                for job in jobs { job.finish(committing: error) }
            }
        }
    }

    /// After the disk filled: empties the log into the database and cuts it back; throws
    /// while the disk is still full. Returns false when a reader still reads an older
    /// snapshot, which the log must keep: the writes go ahead all the same (there is room
    /// again, or the checkpoint would have failed for want of it), and the next ones try
    /// again. The wait for readers is short: behind a long read, every batch would otherwise
    /// wait out the busy timeout, and then fail.
    private func emptyLog() async throws -> Bool {
        try await database.writeWithoutTransaction { db in
            // Space is short: from now on the log is emptied every 1,000 pages (SQLite's
            // default), not every `SQLiteStore.checkpointPages`, which the disk may not
            // hold, and it would fill again on the log alone.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000")
            try db.execute(sql: "PRAGMA busy_timeout = \(Self.readerWaitMilliseconds)")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(SQLiteStore.busyTimeout * 1000))") }
            do {
                _ = try db.checkpoint(.truncate)
                return true
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return false
            }
        }
    }

    /// How long `emptyLog` waits for readers to move to the newest snapshot.
    private static let readerWaitMilliseconds = 200

    /// Runs the jobs in one transaction and returns the errors of those that failed.
    private func run(_ jobs: [any BatchedWrite]) async throws -> [any Error] {
        do {
            return try await database.write { db in
                for job in jobs {
                    if job.run(db, inSavepoint: false) != nil { throw OneWriteFailed() }
                }
                return []
            }
        } catch is OneWriteFailed {
            return try await database.write { db in
                jobs.compactMap { $0.run(db, inSavepoint: true) }
            }
        }
    }

    private struct OneWriteFailed: Error {}

    private static func isDiskFull(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_FULL
    }
}

/// One caller's write inside a shared transaction.
private protocol BatchedWrite: Sendable {
    /// Runs the write, in a savepoint if asked, and keeps its result; returns its error, if
    /// it failed.
    func run(_ db: Database, inSavepoint: Bool) -> (any Error)?
    /// Answers the caller once the transaction is over: its result, or why the commit failed.
    func finish(committing error: (any Error)?)
}

private final class WriteJob<Value: Sendable>: BatchedWrite {
    private let work: @Sendable (Database) throws -> Value
    private let continuation: CheckedContinuation<Value, any Error>
    private let result = Mutex<Result<Value, any Error>?>(nil)

    init(work: @escaping @Sendable (Database) throws -> Value, continuation: CheckedContinuation<Value, any Error>) {
        self.work = work
        self.continuation = continuation
    }

    func run(_ db: Database, inSavepoint: Bool) -> (any Error)? {
        let outcome = Result { () throws -> Value in
            guard inSavepoint else { return try work(db) }
            var value: Value?
            try db.inSavepoint {
                value = try work(db)
                return .commit
            }
            return value!
        }
        result.withLock { $0 = outcome }
        if case .failure(let error) = outcome { return error }
        return nil
    }

    func finish(committing error: (any Error)?) {
        if let error {
            continuation.resume(throwing: error)
        } else {
            // `run` always happens before a commit, so there is a result.
            continuation.resume(with: result.withLock { $0 } ?? .failure(CancellationError()))
        }
    }
}

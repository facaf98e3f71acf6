import Foundation
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON

/// Runs an `ImportPlan` against a store: each file's rows read as they stream in, each made
/// a domain value by the type for its kind (`ConversationRow`, `MessageRow`, …) and written
/// a batch at a time, the next batch read while the last is written. A row that cannot be
/// read or made sense of is printed with its file:line and why, and the rest go on.
struct LeanCloudImporter {
    typealias Store = any ImportStore & DocumentStore

    /// Nil for a dry run: rows are read and checked, nothing is stored.
    let store: Store?
    var batchSize = 1000
    /// Large: each batch is a transaction, and a transaction writes every index page its
    /// messages touch (one or more a conversation) however few of them fell on it.
    var messageBatchSize = 50_000
    /// Conversations whose newest message is held before their read positions are written.
    var readPositionsHeld = 100_000
    var print: (String) -> Void = { Swift.print($0) }

    /// Imports the plan's files in order, with a summary of each; returns false when
    /// something did not come across (a row unreadable or skipped, a file unreadable).
    func run(_ plan: ImportPlan) async -> Bool {
        for warning in plan.warnings { print(warning) }
        var complete = !plan.damaged
        var newest = NewestImported(limit: readPositionsHeld)
        for (index, file) in plan.files.enumerated() {
            let firstOfMessages = file.kind == .messages && (index == 0 || plan.files[index - 1].kind != .messages)
            let lastOfMessages = file.kind == .messages && (index + 1 == plan.files.count || plan.files[index + 1].kind != .messages)
            do {
                if firstOfMessages { try await store?.startImportingMessages(expected: plan.expectedMessages) }
                let tally = try await importFile(file, newest: &newest)
                print(tally.summary(of: file, dryRun: store == nil))
                complete = complete && !tally.lostSome
            } catch {
                print("\(file.path): not imported: \(error)")
                complete = false
            }
            guard lastOfMessages else { continue }
            do {
                try await markRead(newest.take())
                try await store?.finishImportingMessages()
            } catch {
                print("messages: not finished: \(error)")
                complete = false
            }
        }
        return complete
    }

    private func importFile(_ file: ImportPlan.File, newest: inout NewestImported) async throws -> ImportTally {
        switch file.kind {
        case .conversations:
            return try await importRows(of: file, map: ConversationRow.conversation, write: Self.inTurn { try await $0.importConversations($1) })
        case .roles:
            return try await importRows(
                of: file, map: MemberInfoRow.role, lastOfEach: { $0.conversationID + "\n" + $0.clientID }, write: Self.inTurn { try await $0.importRoles($1) }
            )
        case .lists:
            return try await importRows(of: file, map: ConversationListsRow.lists, lastOfEach: \.conversationID, write: Self.inTurn { try await $0.importLists($1) })
        case .subscribers:
            return try await importRows(of: file, map: SubscriberRow.subscription, write: Self.inTurn { try await $0.importSubscriptions($1) })
        case .messages:
            return try await importRows(
                of: file, batchSize: messageBatchSize, map: MessageRow.message, write: { try await $0.importMessages($1, after: $2) },
                written: { messages, outcome in
                    // Those already there count too: an import killed before it marked them read marks them now.
                    var skipped = Set(outcome.skipped.map(\.index))
                    for (index, message) in messages.enumerated() where skipped.remove(index) == nil {
                        newest.note(message)
                    }
                    if newest.isFull { try await markRead(newest.take()) }
                }
            )
        case .installations:
            return try await importRows(of: file, map: InstallationRow.installation, write: Self.inTurn { try await $0.importInstallations($1) })
        case .appClass(let name):
            try ClassNames.validate(className: name)
            // Rows without times take the file's: the same each time it is imported, so it
            // stores nothing twice, and a later export's are newer.
            let modified = try FileManager.default.attributesOfItem(atPath: file.input.file)[.modificationDate] as? Date
            let now = modified.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? SystemWallClock().now()
            return try await importRows(
                of: file, map: { try StoredDocument(importing: $0, className: name, now: now) }, write: Self.inTurn { try await $0.importDocuments($1) }
            )
        }
    }

    private func markRead(_ newest: [String: Int64]) async throws {
        try await store?.markImportedHistoryRead(newest)
    }

    /// Waits for the batch before this one to be stored; throws what it threw.
    typealias Turn = @Sendable () async throws -> Void

    /// A store's write of a batch that makes nothing ready first: it waits its turn, then writes.
    private static func inTurn<Value>(
        _ write: @escaping @Sendable (Store, [Value]) async throws -> ImportOutcome
    ) -> @Sendable (Store, [Value], Turn) async throws -> ImportOutcome {
        { store, batch, turn in
            try await turn()
            return try await write(store, batch)
        }
    }

    /// Reads the file's rows, makes each a value with `map` and hands them to `write` with
    /// the store a batch at a time, then to `written` with what the store did; without a
    /// store (a dry run), reads only. A batch is handed over as soon as it is read, with its
    /// turn after the one before: while one is written the next is made ready to write
    /// (`ImportStore.importMessages`) and the one after is read. Of rows of a batch with the
    /// same `lastOfEach` key, the last is written and the others count as already there (a
    /// later run's line for the same thing supersedes them).
    private func importRows<Value: Sendable>(
        of file: ImportPlan.File, batchSize: Int? = nil,
        map: (JSONValue) throws -> Value, lastOfEach key: ((Value) -> String)? = nil,
        write: @escaping @Sendable (Store, [Value], Turn) async throws -> ImportOutcome,
        written: ([Value], ImportOutcome) async throws -> Void = { _, _ in }
    ) async throws -> ImportTally {
        let batchSize = batchSize ?? self.batchSize
        var reader = try ExportFileReader(source: file.input.open(), name: file.input.place, byteLimit: file.byteLimit)
        var tally = ImportTally()
        var skips = SkipReport(file: file)
        var values: [Value] = [], places: [String] = []
        var writing: (task: Task<ImportOutcome, any Error>, values: [Value], places: [String])?

        func settle() async throws {
            guard let batch = writing else { return }
            writing = nil
            let outcome = try await batch.task.value
            tally.stored += outcome.stored
            tally.replaced += outcome.replaced
            tally.alreadyThere += outcome.alreadyThere
            tally.skipped += outcome.skipped.count
            for note in outcome.notes { print("\(batch.places[note.index]): note: \(note.reason)") }
            for skip in outcome.skipped { skips.add(skip.reason, at: batch.places[skip.index], print: print) }
            try await written(batch.values, outcome)
        }
        func submit() async throws {
            guard let store, !values.isEmpty else {
                try await settle()
                values.removeAll()
                places.removeAll()
                return
            }
            if let key {
                var last: [String: Int] = [:]
                for (index, value) in values.enumerated() { last[key(value)] = index }
                let kept = last.values.sorted()
                tally.alreadyThere += values.count - kept.count
                values = kept.map { values[$0] }
                places = kept.map { places[$0] }
            }
            let batch = values, batchPlaces = places
            values = []
            places = []
            let before = writing?.task
            let next = Task { try await write(store, batch, { _ = try await before?.value }) }
            do {
                try await settle()
            } catch {
                // It waits for the one that failed, and fails with it.
                _ = try? await next.value
                throw error
            }
            writing = (next, batch, batchPlaces)
        }

        do {
            while let item = try reader.next() {
                switch item {
                case .unreadable(let place, let reason):
                    tally.unreadable += 1
                    print("\(place): skipped: \(reason)")
                case .row(let row, let place):
                    do {
                        values.append(try map(row))
                        places.append(place)
                        tally.read += 1
                    } catch {
                        tally.unreadable += 1
                        print("\(place): skipped: \((error as? StorageError)?.message ?? "\(error)")")
                    }
                    if values.count >= batchSize { try await submit() }
                }
            }
            try await submit()
            try await settle()
        } catch {
            // What is being written is written before the error is told.
            _ = try? await writing?.task.value
            throw error
        }
        skips.finish(print: print)
        return tally
    }
}

/// The rows a store skipped in one file, each printed with its file:line; messages, whose
/// skips come by the thousand (a temporary conversation's history), are told once per
/// reason with a count.
private struct SkipReport {
    let file: ImportPlan.File
    private var counts: [String: (count: Int, first: String)] = [:]
    private var order: [String] = []

    init(file: ImportPlan.File) {
        self.file = file
    }

    mutating func add(_ reason: String, at place: String, print: (String) -> Void) {
        guard file.kind == .messages else { return print("\(place): skipped: \(reason)") }
        if let known = counts[reason] {
            counts[reason] = (known.count + 1, known.first)
        } else {
            counts[reason] = (1, place)
            order.append(reason)
        }
    }

    static let reasonsShown = 10

    func finish(print: (String) -> Void) {
        for reason in order.prefix(Self.reasonsShown) {
            guard let (count, first) = counts[reason] else { continue }
            print("\(first): skipped \(count) message\(count == 1 ? "" : "s") from here on: \(reason) here or in the export"
                + " (LeanCloud's REST API lists no temporary conversations, so their history has nowhere to go)")
        }
        if order.count > Self.reasonsShown {
            let rest = order.dropFirst(Self.reasonsShown).compactMap { counts[$0]?.count }.reduce(0, +)
            print("\(file.path): skipped \(rest) more messages of \(order.count - Self.reasonsShown) more missing conversations")
        }
    }
}

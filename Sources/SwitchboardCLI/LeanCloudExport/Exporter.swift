import Foundation
import SwitchboardData
import SwitchboardJSON
import SwitchboardServer

/// One `leancloud export` into a folder: the classes, then the lists of the conversations
/// that walk wrote, then the messages after the last one exported, each page recorded in
/// the manifest as it is written. A run killed or interrupted is taken up by the next from
/// its last record; a run after a finished one asks only for what changed since that one
/// started. Files are written from the one task that runs this: an export does nothing else
/// meanwhile, and each page's writes are small next to the request that fetched it.
final class Exporter {
    struct Settings {
        var server: URL
        var appID: String
        var masterKey: String
        var folder: String
        /// Classes named; none: every class the server lists.
        var classes: [String]
        var rate: Double
        /// Milliseconds: for a first run, what changed before this is not asked for.
        var since: Int64?
        var pageSize: Int
        /// How far the server's clock may be behind this one: a later run asks for what
        /// changed since this long before the previous run started.
        var skew: Duration
        var retryFor: Duration
    }

    static let conversationFile = "classes/\(ConversationClass.name).jsonl"
    static let listsFile = "conversations/lists.jsonl"
    static let subscribersFile = "conversations/subscribers.jsonl"

    let settings: Settings
    let folder: ExportFolder
    let client: PacedClient
    let progress = ExportProgress()
    let started = ContinuousClock.now
    /// Requests and retries of the run before this process took it up.
    private var earlierRequests = 0
    private var earlierRetries = 0
    /// What the line redrawn says of the pass under way.
    var passStatus = ""
    /// Whether this process started a run or took one up (the summary is of that run).
    private var runUnderWay = false

    init(_ settings: Settings) throws {
        self.settings = settings
        folder = try ExportFolder(path: settings.folder, server: settings.server.absoluteString, appID: settings.appID)
        var storage = RemoteStorage(url: settings.server, appID: settings.appID, masterKey: settings.masterKey)
        // A page of 1000 messages or objects from a busy server in its last weeks.
        storage.timeout = .seconds(60)
        client = PacedClient(storage: storage, rate: settings.rate, retryFor: settings.retryFor)
        client.onRetry = { [progress] what, why, wait in
            progress.note("\(what): \(why); trying again in \(ExportProgress.format(wait))")
        }
    }

    var run: ExportManifest.Run {
        get { folder.manifest.runs[folder.manifest.runs.count - 1] }
        set { folder.manifest.runs[folder.manifest.runs.count - 1] = newValue }
    }

    /// Runs the export to its end, an interruption or a failure, and says how it went:
    /// the exit status.
    func export() async -> Int32 {
        do {
            try await begin()
            try await exportClasses()
            try await exportConversationLists()
            try await exportMessages()
            run.finished = ISODate.string(milliseconds: SystemWallClock().now())
            try commit()
            report("finished")
            return 0
        } catch is CancellationError {
            report("interrupted", then: "what was fetched is saved; the same command goes on from there")
            return 130
        } catch {
            progress.clear()
            FileHandle.standardError.write(Data("leancloud export: \(error)\n".utf8))
            report("stopped", then: "\(error)")
            return 1
        }
    }

    /// Takes up the run a killed one left, or starts a new one: its classes, and what it
    /// asks for (changes since the previous run started, or `--since`).
    private func begin() async throws {
        if let last = folder.manifest.runs.last, last.finished == nil {
            earlierRequests = last.requests
            earlierRetries = last.retries
            runUnderWay = true
            if settings.since != nil { progress.note("--since is not used: this run goes on from where the last one stopped, since \(last.since ?? "the beginning")") }
            progress.note("going on from where the run started \(last.started) stopped")
            return
        }
        let now = SystemWallClock().now()
        let previous = folder.manifest.runs.last.flatMap { ISODate.milliseconds(from: .string($0.started)) }
        let since = settings.since ?? previous.map { $0 - Int64(settings.skew.components.seconds * 1000) }
        let classes = try await classesToExport()
        let sinceText = since.map { ISODate.string(milliseconds: $0) }
        folder.manifest.runs.append(.init(started: ISODate.string(milliseconds: now), since: sinceText))
        runUnderWay = true
        var state = folder.manifest.state
        // A class no run exported before is asked for whole, unless --since says otherwise.
        state.classes = classes.map { name in
            .init(name: name, since: settings.since != nil || state.files["classes/\(name).jsonl"] != nil ? sinceText : nil)
        }
        let conversationsFrom = state.files[Self.conversationFile] ?? 0
        state.conversations = .init(from: conversationsFrom, at: conversationsFrom)
        if folder.manifest.runs.count == 1, let since, state.messages.timestamp == nil {
            // Messages from `since` on: the start is left out, so a millisecond before it.
            state.messages.timestamp = since - 1
        }
        folder.manifest.state = state
        passStatus = "classes 0/\(classes.count)"
        try commit()
    }

    /// The IM classes (first, whatever is named), then those named, or else every class `GET /1.1/schemas` lists.
    private func classesToExport() async throws -> [String] {
        var named = settings.classes
        if named.isEmpty {
            passStatus = "listing classes"
            let schemas = try await client.get(["1.1", "schemas"])
            guard let classes = schemas.objectValue else { throw unexpected("GET /1.1/schemas", schemas) }
            named = classes.keys.sorted()
        }
        let imClasses = [ConversationClass.name, IMClasses.memberInfo, IMClasses.installation]
        return imClasses + named.filter { !imClasses.contains($0) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    }

    /// Appends lines to a file, counted for this run under `count` (the file's own name by default).
    func record(_ lines: [String], to file: String, count: String? = nil) throws {
        try folder.append(lines, to: file)
        run.counts[count ?? file, default: 0] += lines.count
    }

    /// Records where the export stands (files, positions, this run's counts), shows it,
    /// and stops here if asked to.
    func commit() throws {
        run.requests = earlierRequests + client.requests
        run.retries = earlierRetries + client.retries
        try folder.save()
        progress.show(self.status)
        try Task.checkCancellation()
    }

    private var status: String {
        passStatus + (client.rate.map { String(format: " · %.1f req/s", $0) } ?? "") + " · " + ExportProgress.format(ContinuousClock.now - started) + " in"
    }

    func unexpected(_ what: String, _ answer: JSONValue) -> ExportFailure {
        ExportFailure("\(client.client.server) answered \(what) with \(String(answer.jsonString.prefix(200))), not what LeanCloud answers")
    }

    /// The summary, on standard output: how the run ended, and what it fetched (all its
    /// processes together, when it was taken up again).
    private func report(_ outcome: String, then note: String? = nil) {
        progress.clear()
        let ending = outcome + " after " + ExportProgress.format(ContinuousClock.now - started) + (note.map { "; " + $0 } ?? "")
        guard runUnderWay, let run = folder.manifest.runs.last else { return print("leancloud export of \(settings.appID): \(ending)") }
        var lines = ["leancloud export of \(settings.appID) into \(settings.folder): \(ending)"]
        if let since = run.since { lines.append("  asked for what changed since \(since)") }
        let width = max(run.counts.keys.map(\.count).max() ?? 0, 8)
        for (name, count) in run.counts.sorted(by: { $0.key < $1.key }) {
            lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + ExportProgress.count(count))
        }
        lines.append("  requests \(ExportProgress.count(run.requests)), retries \(ExportProgress.count(run.retries))")
        print(lines.joined(separator: "\n"))
    }
}

import Foundation
import SwitchboardJSON
import SwitchboardServer

/// GETs to a LeanCloud-compatible server, kind to it: at most `rate` requests a second, one
/// at a time; a 429, a 5xx, a 124 (the server's own time-out) or a request that gets no
/// answer (refused, dropped, timed out) is tried again after a wait doubling from a second to
/// a minute (longer if the server's `Retry-After` says so, up to a minute), until `retryFor` has passed
/// since the first try. Any other refusal (401 for a wrong key, 403, 404, ...) is final.
/// Used by one task at a time.
final class PacedClient {
    let client: LeanStorageClient
    let interval: Duration
    let retryFor: Duration
    /// Told of each wait before a request is tried again: what, why, how long.
    var onRetry: (String, String, Duration) -> Void = { _, _, _ in }
    private(set) var requests = 0
    private(set) var retries = 0
    private var nextStart = ContinuousClock.now
    private var firstStart: ContinuousClock.Instant?
    static let longestWait = Duration.seconds(60)

    init(storage: RemoteStorage, rate: Double, retryFor: Duration) {
        client = LeanStorageClient(storage: storage)
        interval = .nanoseconds(Int64(1e9 / rate))
        self.retryFor = retryFor
    }

    /// The JSON the server answers a GET of `/{path}` with.
    func get(_ path: [String], _ query: [(String, String)] = []) async throws -> JSONValue {
        let what = "GET /" + path.joined(separator: "/")
        let firstTry = ContinuousClock.now
        var tries = 0
        while true {
            try await pace()
            requests += 1
            tries += 1
            let why: String
            var asked: Duration?
            do {
                let answer = try await client.exchange(path, query: query)
                try Task.checkCancellation()
                let json = try? JSONValue(parsing: answer.text)
                let refusal = ExportRefusal(what: what, status: answer.status, answer: json, text: answer.text, server: client.server)
                if (200..<300).contains(answer.status) {
                    guard let json else { throw ExportFailure("\(client.server) answered \(what) with something that is not JSON: \(refusal.excerpt)") }
                    return json
                }
                guard answer.status == 429 || (500..<600).contains(answer.status) || refusal.code == 124 else { throw refusal }
                why = refusal.summary
                asked = RetryAfterHeader.duration(answer.retryAfter)
            } catch let noAnswer as LeanStorageClient.NoAnswer {
                try Task.checkCancellation()
                if case .tooLarge = noAnswer { throw ExportFailure("\(client.server) \(noAnswer) to \(what)") }
                why = noAnswer.description
            }
            let waited = ContinuousClock.now - firstTry
            guard waited < retryFor else {
                throw ExportFailure("gave up on \(what) after \(tries) tries over \(ExportProgress.format(waited)): \(why). Run the same command again later to go on from here.")
            }
            // Never sooner than the server asks, nor than the wait that doubles with each try.
            let wait = min(max(asked ?? .zero, .seconds(1) * (1 << min(tries - 1, 6))), Self.longestWait)
            retries += 1
            onRetry(what, why, wait)
            try await Task.sleep(for: wait)
        }
    }

    /// Waits for the request's turn: `interval` after the one before started.
    private func pace() async throws {
        let now = ContinuousClock.now
        if nextStart > now { try await Task.sleep(until: nextStart) }
        nextStart = max(now, nextStart) + interval
        if firstStart == nil { firstStart = ContinuousClock.now }
    }

    /// Requests a second since the first (nil before the second).
    var rate: Double? {
        guard let firstStart, requests > 1 else { return nil }
        return Double(requests - 1) / max(ExportProgress.seconds(ContinuousClock.now - firstStart), 0.001)
    }
}

/// A refusal from the server: its HTTP status and LeanCloud's `{code, error}` when it sent them.
struct ExportRefusal: Error, CustomStringConvertible {
    let what: String
    let status: Int
    let code: Int?
    let message: String?
    let excerpt: String
    let server: String

    init(what: String, status: Int, answer: JSONValue?, text: String, server: String) {
        self.what = what
        self.status = status
        code = answer?["code"]?.int64Value.map { Int(clamping: $0) }
        message = answer?["error"]?.stringValue
        excerpt = text.isEmpty ? "(empty)" : String(text.prefix(200))
        self.server = server
    }

    /// `401 Unauthorized. (HTTP 401)`, or the status and what came when it is not LeanCloud's.
    var summary: String {
        if let code { return "\(code) \(message ?? "(no message)") (HTTP \(status))" }
        return "HTTP \(status): \(excerpt)"
    }

    var description: String { "\(server) refused \(what): \(summary)" }
}

import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import Synchronization
import SwitchboardHooks
import SwitchboardJSON

/// A hook point answered by a LeanEngine app over HTTP, exactly as LeanCloud called it:
/// `POST {url}/1.1/functions/{hook}` with the params as the JSON body, the app's id, a
/// master-key request signature and the hook key in headers, and the answer read from
/// `{"result": …}`. Both of LeanCloud's engine SDKs (Node, Python) accept this as it is.
final class RemoteHookHandler: HookHandler {
    let name: String
    let kind = "remote"
    let version: String
    let priority: Int
    let budget: Duration?
    let failurePolicy: FailurePolicy?
    let points: Set<HookPoint>
    private let engine: RemoteEngine
    private let appID: String
    private let masterKey: String
    private let breaker: CircuitBreaker
    private let inFlight = Mutex(0)
    /// Hook points the app answered 404 for (it does not define them), and when: not called
    /// again until `undefinedRecheck` has passed, as LeanCloud called only defined hooks.
    private let undefined = Mutex<[HookPoint: ContinuousClock.Instant]>([:])
    static let undefinedRecheck: Duration = .seconds(60)
    private let up: Meter
    private let logger: Logger
    /// Larger answers are refused: a hook's result is small.
    static let maxResponseBytes = 1 << 20

    init(engine: RemoteEngine, appID: String, masterKey: String, metrics: HookMetrics, logger: Logger) {
        name = engine.name
        version = engine.url.absoluteString
        priority = engine.priority ?? 0
        budget = engine.budget
        failurePolicy = engine.failurePolicy
        points = engine.points
        self.engine = engine
        self.appID = appID
        self.masterKey = masterKey
        breaker = CircuitBreaker(threshold: engine.breakerFailures, cooldown: engine.breakerCooldown)
        up = metrics.makeGauge(
            subsystem: "remote", name: "engine_up", help: "1 while a remote hook engine answers, 0 while calls to it fail fast.",
            labels: [("engine", engine.name)]
        )
        up.set(1.0)
        self.logger = logger
    }

    /// Why a call did not give a result. `engineAnswered` failures came from a running
    /// engine (its hook refused or returned the wrong shape) and do not count against it.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var engineAnswered = false
    }

    func handle<Request: HookRequest>(_ request: Request) async throws -> Request.Result {
        let skipped = undefined.withLock { undefined in
            undefined[request.point].map { ContinuousClock.now - $0 < Self.undefinedRecheck } ?? false
        }
        if skipped { return .passThrough }
        let admitted = inFlight.withLock { count -> Bool in
            guard count < engine.maxConcurrent else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Failure(description: "\(name) has \(engine.maxConcurrent) calls in flight (maxConcurrent)") }
        defer { inFlight.withLock { $0 -= 1 } }
        guard breaker.admit() else {
            throw Failure(description: "\(name) is down: after \(breaker.threshold) failures in a row its calls fail at once, and one call every \(breaker.cooldown) checks whether it is back")
        }
        do {
            let result = try await call(request)
            note(breaker.record(success: true))
            return result
        } catch let failure as Failure where failure.engineAnswered {
            note(breaker.record(success: true))
            throw failure
        } catch {
            // Refused, unreachable, too slow (the pipeline cancelled the call at its budget), or
            // answering with server errors or garbage.
            note(breaker.record(success: false))
            throw error
        }
    }

    private func call<Request: HookRequest>(_ request: Request) async throws -> Request.Result {
        let hook = request.point.rawValue
        var outgoing = HTTPClientRequest(url: engine.url.appendingPathComponent("1.1/functions/\(hook)").absoluteString)
        outgoing.method = .POST
        outgoing.headers.add(name: "Content-Type", value: "application/json")
        outgoing.headers.add(name: "X-LC-Id", value: appID)
        outgoing.headers.add(name: "X-LC-Sign", value: RequestSignature.sign(masterKey: masterKey))
        outgoing.headers.add(name: "X-LC-Hook-Key", value: engine.hookKey)
        outgoing.headers.add(name: "User-Agent", value: "Switchboard")
        outgoing.body = .bytes(ByteBuffer(string: request.params.jsonString))
        // The pipeline ends the call at its budget by cancelling it.
        let response = try await OutboundHTTP.client.execute(outgoing, timeout: .hours(1))
        let status = Int(response.status.code)
        let text = String(buffer: try await response.body.collect(upTo: Self.maxResponseBytes))
        let answer = try? JSONValue(parsing: text)
        // Both SDKs answer a hook the app does not define with 404 and a JSON error.
        if status == 404, answer?["error"]?.stringValue != nil {
            let first = undefined.withLock { $0.updateValue(.now, forKey: request.point) == nil }
            if first {
                logger.notice("remote hook engine does not define this hook; passing it by", metadata: [
                    "engine": "\(name)", "hook": "\(hook)", "recheck": "\(Self.undefinedRecheck)",
                ])
            }
            return .passThrough
        }
        guard (200..<300).contains(status) else {
            let said = answer?["error"]?.stringValue.map { ": \($0)" + (answer?["code"].map { " (code \($0.jsonString))" } ?? "") } ?? ": " + Self.excerpt(text)
            throw Failure(description: "\(name) answered \(hook) with HTTP \(status)\(said)", engineAnswered: status < 500)
        }
        guard let result = answer?["result"] else {
            throw Failure(description: "\(name) answered \(hook) without {\"result\": …}: \(Self.excerpt(text))")
        }
        do {
            return try Request.Result(json: result)
        } catch {
            throw Failure(description: "\(name)'s result for \(hook): \(error)", engineAnswered: true)
        }
    }

    private func note(_ change: CircuitBreaker.Change?) {
        switch change {
        case .opened?:
            up.set(0.0)
            logger.error("remote hook engine is failing; its calls fail at once until a probe gets through", metadata: [
                "engine": "\(name)", "url": "\(version)", "cooldown": "\(breaker.cooldown)",
            ])
        case .closed?:
            up.set(1.0)
            logger.notice("remote hook engine answers again", metadata: ["engine": "\(name)", "url": "\(version)"])
        case nil:
            break
        }
    }

    private static func excerpt(_ text: String) -> String {
        text.isEmpty ? "(empty)" : String(text.prefix(200))
    }
}

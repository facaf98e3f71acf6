import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization
import SwitchboardHooks
import SwitchboardWire
import Testing
@testable import SwitchboardServer

/// Hooks answered by a LeanEngine app over HTTP, as LeanCloud called them.
@Suite(.storeBlind) struct RemoteHookTests {
    /// An app's hooks as its developers wrote them for LeanCloud, in LeanCloud's own SDK.
    private static let cloud = """
        @engine.define
        def _messageReceived(**params):
            content = params['content']
            if 'spam' in content:
                return {'drop': True, 'code': 4321}
            if content.startswith('to-carol:'):
                return {'toPeers': ['carol'], 'content': content[len('to-carol:'):]}
            return {'content': content.replace('darn', '****')}

        @engine.define
        def _receiversOffline(**params):
            return {'pushMessage': json.dumps({'alert': params['fromPeer'] + ': ' + params['content'], 'badge': 'Increment'})}
        """

    @Test func leanCloudsOwnEngineDecidesWhatHappensToMessages() async throws {
        let engine = try await LeanEngineApp.start(Self.cloud)
        defer { engine.stop() }
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push) { config in
            config.remoteEngines = [RemoteEngine(name: "engine", url: engine.url, hookKey: LeanEngineApp.hookKey)]
            // Room for the round trip while the rest of the suite loads the machine.
            config.hooks.defaultBudget = .seconds(10)
        }
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave"])

        // Rewritten, for everyone.
        _ = try await alice.sendText("oh darn", cid: cid)
        #expect(try await bob.nextMessage().msg == "oh ****")
        #expect(try await carol.nextMessage().msg == "oh ****")
        // Dave is offline: the push payload is the engine's.
        let notice = try await push.next()
        #expect(notice.payload["alert"]?.stringValue == "alice: oh ****")
        #expect(notice.payload["badge"]?.stringValue == "Increment")

        // Dropped, with the engine's code.
        let dropped = try await alice.request(.text("buy spam", cid: cid))
        #expect(dropped.ackMessage.code == 4402)
        #expect(dropped.ackMessage.appCode == 4321)

        // Sent to carol only.
        _ = try await alice.sendText("to-carol:psst", cid: cid)
        #expect(try await carol.nextMessage().msg == "psst")
        try await bob.awaitDeliveries(from: alice)
        #expect(bob.received { $0.cmd == .direct }.isEmpty)
        try await server.stop()
    }

    @Test func theEngineRefusesAWrongHookKeyAndThePolicyDecides() async throws {
        let engine = try await LeanEngineApp.start(Self.cloud)
        defer { engine.stop() }
        var remote = RemoteEngine(name: "engine", url: engine.url, hookKey: "not-the-key")
        remote.failurePolicy = .closed
        let handler = Self.handler(remote)
        await #expect {
            _ = try await handler.handle(MessageReceivedRequest.sample("hello"))
        } throws: { error in
            "\(error)" == "engine answered _messageReceived with HTTP 401: Unauthorized. (code 401)"
        }
        let hooks = Self.pipeline(remote)
        let outcome = await hooks.run(MessageReceivedRequest.sample("hello"))
        #expect(outcome.stop?.failed == true)
    }

    @Test func anEngineThatIsDownSlowOrBrokenFailsUnderThePolicy() async throws {
        let broken = try await FakeEngine.start()
        defer { Task { await broken.stop() } }
        let down = Self.handler(RemoteEngine(name: "down", url: URL(string: "http://127.0.0.1:1")!, hookKey: "k"))
        await #expect(throws: (any Error).self) { _ = try await down.handle(MessageReceivedRequest.sample()) }

        broken.answer.withLock { $0 = (200, "<html>busy</html>") }
        let garbage = Self.handler(RemoteEngine(name: "garbage", url: broken.url, hookKey: "k"))
        await #expect {
            _ = try await garbage.handle(MessageReceivedRequest.sample())
        } throws: { error in
            "\(error)" == "garbage answered _messageReceived without {\"result\": …}: <html>busy</html>"
        }
        broken.answer.withLock { $0 = (200, #"{"result": {"toPeers": "everyone"}}"#) }
        await #expect {
            _ = try await garbage.handle(MessageReceivedRequest.sample())
        } throws: { error in
            "\(error)".hasPrefix("garbage's result for _messageReceived:")
        }

        // Slow: the pipeline ends the call at its budget and the message goes on (open policy).
        broken.answer.withLock { $0 = (200, #"{"result": {"content": "late"}}"#) }
        broken.delay.withLock { $0 = .seconds(5) }
        var slow = RemoteEngine(name: "slow", url: broken.url, hookKey: "k")
        slow.budget = .milliseconds(200)
        let hooks = Self.pipeline(slow)
        let started = ContinuousClock.now
        let outcome = await hooks.run(MessageReceivedRequest.sample("on time"))
        #expect(outcome.request.content == "on time" && outcome.stop == nil)
        #expect(ContinuousClock.now - started < .seconds(4), "the call waited for the engine past its budget")
        #expect(hooks.metrics.exposition.contains(#"switchboard_hook_timeouts_total{handler="slow",kind="remote",point="_messageReceived"} 1"#))
    }

    /// An engine whose process is gone refuses the connection: each call fails at once under
    /// its policy and counts towards the breaker, instead of waiting out its budget.
    @Test func anEngineThatRefusesConnectionsFailsAtOnce() async throws {
        // A port held and never listened on refuses every connection, and no other test's
        // server can take it meanwhile.
        let held = try LoopbackTCP.bindWithoutListening()
        defer { close(held.descriptor) }
        var remote = RemoteEngine(name: "gone", url: URL(string: "http://127.0.0.1:\(held.port)")!, hookKey: "k")
        remote.budget = .seconds(3)
        remote.breakerFailures = 2
        let hooks = Self.pipeline(remote)
        for _ in 0..<2 {
            #expect(await hooks.run(MessageReceivedRequest.sample("goes on")).request.content == "goes on")
        }
        let metrics = hooks.metrics.exposition
        #expect(metrics.contains(#"switchboard_hook_failures_total{handler="gone",kind="remote",point="_messageReceived"} 2"#))
        #expect(!metrics.contains(#"switchboard_hook_timeouts_total{handler="gone",kind="remote",point="_messageReceived"} 1"#))
        #expect(!metrics.contains(#"switchboard_hook_timeouts_total{handler="gone",kind="remote",point="_messageReceived"} 2"#))
        #expect(metrics.contains(#"switchboard_remote_engine_up{engine="gone"} 0"#))
    }

    @Test func aFailingEngineIsCutOff() async throws {
        let engine = try await FakeEngine.start()
        defer { Task { await engine.stop() } }
        engine.answer.withLock { $0 = (500, #"{"code": 141, "error": "Cloud Code script had an error."}"#) }
        var remote = RemoteEngine(name: "flaky", url: engine.url, hookKey: "k")
        remote.breakerFailures = 3
        remote.breakerCooldown = .seconds(60)
        let hooks = Self.pipeline(remote)
        for _ in 0..<6 { _ = await hooks.run(MessageReceivedRequest.sample()) }
        #expect(engine.calls == 3, "calls went on reaching an engine that failed three times in a row")
        #expect(hooks.metrics.exposition.contains(#"switchboard_remote_engine_up{engine="flaky"} 0"#))
        #expect(hooks.metrics.exposition.contains(#"switchboard_hook_failures_total{handler="flaky",kind="remote",point="_messageReceived"} 6"#))
    }

    @Test func aCutOffEngineIsProbedBack() async throws {
        let engine = try await FakeEngine.start()
        defer { Task { await engine.stop() } }
        engine.answer.withLock { $0 = (503, "down for maintenance") }
        var remote = RemoteEngine(name: "flaky", url: engine.url, hookKey: "k")
        remote.breakerFailures = 2
        remote.breakerCooldown = .milliseconds(200)
        let hooks = Self.pipeline(remote)
        for _ in 0..<2 { _ = await hooks.run(MessageReceivedRequest.sample()) }
        #expect(hooks.metrics.exposition.contains(#"switchboard_remote_engine_up{engine="flaky"} 0"#))
        engine.answer.withLock { $0 = (200, #"{"result": {"content": "back"}}"#) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(await hooks.run(MessageReceivedRequest.sample()).request.content == "back")
        #expect(await hooks.run(MessageReceivedRequest.sample()).request.content == "back")
        #expect(hooks.metrics.exposition.contains(#"switchboard_remote_engine_up{engine="flaky"} 1"#))
    }

    /// LeanCloud called only the hooks an app defined; an engine says which it does not by
    /// answering 404, and is not asked again for a while.
    @Test func hooksTheAppDoesNotDefinePassByWithoutACallEachTime() async throws {
        let python = try await LeanEngineApp.start(Self.cloud)
        defer { python.stop() }
        let real = Self.handler(RemoteEngine(name: "engine", url: python.url, hookKey: LeanEngineApp.hookKey))
        _ = try await real.handle(MessageSentNotification.sample())

        let fake = try await FakeEngine.start()
        defer { Task { await fake.stop() } }
        fake.answer.withLock { $0 = (404, #"{"code": 1, "error": "No such cloud function '_messageSent'"}"#) }
        let handler = Self.handler(RemoteEngine(name: "engine", url: fake.url, hookKey: "k"))
        for _ in 0..<3 { _ = try await handler.handle(MessageSentNotification.sample()) }
        #expect(fake.calls == 1)
    }

    @Test func requestsCarryLeanEnginesHeadersAndTheParams() async throws {
        let engine = try await FakeEngine.start()
        defer { Task { await engine.stop() } }
        engine.answer.withLock { $0 = (200, #"{"result": null}"#) }
        let handler = Self.handler(RemoteEngine(name: "engine", url: engine.url, hookKey: "the-hook-key"))
        let result = try await handler.handle(MessageReceivedRequest.sample("hi"))
        #expect(result.content == nil && !result.stopsChain)
        let seen = try #require(engine.last)
        #expect(seen.path == "/1.1/functions/_messageReceived")
        #expect(seen.headers["x-lc-id"] == LeanEngineApp.appID)
        #expect(seen.headers["x-lc-hook-key"] == "the-hook-key")
        #expect(seen.headers["content-type"] == "application/json")
        let sign = try #require(seen.headers["x-lc-sign"]).split(separator: ",").map(String.init)
        #expect(sign.count == 3 && sign[2] == "master")
        let digest = Insecure.MD5.hash(data: Data((sign[1] + LeanEngineApp.masterKey).utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(sign[0] == digest)
        #expect(try JSONSerialization.jsonObject(with: Data(seen.body.utf8)) as? NSDictionary == JSONSerialization.jsonObject(with: Data(MessageReceivedRequest.sample("hi").params.jsonString.utf8)) as? NSDictionary)
    }

    @Test func theConfigNamesEnginesAndHooksListShowsThem() throws {
        let path = TestServer.temporaryDirectory() + "/switchboard.yaml"
        try """
            hooks:
              remote:
                - name: legacy-app
                  url: http://127.0.0.1:3001
                  hookKey: secret
                  points: [_messageReceived, _receiversOffline]
                  budgetMs: 800
                  onFailure: closed
                  breaker: { failures: 2, cooldownMs: 1000 }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ServerConfig.load(path: path)
        let engine = try #require(config.remoteEngines.first)
        #expect(engine.points == [.messageReceived, .receiversOffline])
        #expect(engine.budget == .milliseconds(800) && engine.failurePolicy == .closed)
        #expect(engine.breakerFailures == 2 && engine.breakerCooldown == .seconds(1))
        let chain = SwitchboardApplication.makeHooks(config: config, plugins: [], logger: Logger(label: "test")).resolvedChain(for: .messageReceived)
        #expect(chain.map(\.kind) == ["remote"] && chain.first?.budget == .milliseconds(800))

        for bad in ["url: ftp://x\n    hookKey: k", "url: http://127.0.0.1:3001", "url: http://127.0.0.1:3001\n    hookKey: k\n    points: [_nope]"] {
            try "hooks:\n  remote:\n  - name: x\n    \(bad)\n".write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: ConfigError.self, "\(bad)") { try ServerConfig.load(path: path) }
        }
    }

    private static func handler(_ engine: RemoteEngine) -> RemoteHookHandler {
        RemoteHookHandler(engine: engine, appID: LeanEngineApp.appID, masterKey: LeanEngineApp.masterKey, metrics: HookMetrics(), logger: Logger(label: "test"))
    }

    /// A pipeline with `engine` alone, with room for loopback round trips while the rest of
    /// the suite loads the machine unless the test sets a budget.
    private static func pipeline(_ engine: RemoteEngine) -> HookPipeline {
        var engine = engine
        engine.budget = engine.budget ?? .seconds(10)
        var config = ServerConfig()
        config.remoteEngines = [engine]
        return SwitchboardApplication.makeHooks(config: config, plugins: [], metrics: .inOwnRegistry(), logger: Logger(label: "test"))
    }
}

/// An engine on loopback whose answers a test sets, and which records what it was sent.
private final class FakeEngine: Sendable {
    struct Seen: Sendable {
        var path: String
        var headers: [String: String]
        var body: String
    }

    let answer = Mutex<(Int, String)>((200, #"{"result": {}}"#))
    let delay = Mutex<Duration>(.zero)
    private let seen = Mutex<[Seen]>([])
    private let server = Mutex<LocalHTTPServer?>(nil)

    var calls: Int { seen.withLock { $0.count } }
    var last: Seen? { seen.withLock { $0.last } }
    var url: URL { URL(string: "http://127.0.0.1:\(server.withLock { $0?.port ?? 0 })")! }

    static func start() async throws -> FakeEngine {
        let engine = FakeEngine()
        let router = Router()
        router.post("/1.1/functions/:hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            engine.seen.withLock { $0.append(Seen(path: request.uri.path, headers: headers, body: String(buffer: body))) }
            try await Task.sleep(for: engine.delay.withLock { $0 })
            let (status, text) = engine.answer.withLock { $0 }
            return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        let server = try await LocalHTTPServer.start(router, label: "fake-engine")
        engine.server.withLock { $0 = server }
        return engine
    }

    func stop() async {
        await server.withLock { $0 }?.stop()
    }
}

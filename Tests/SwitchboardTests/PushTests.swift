import Foundation
import Hummingbird
import SwitchboardHooks
import SwitchboardJSON
import SwitchboardServer
import SwitchboardWire
import Testing

/// Push providers over real clients: the JSON-lines log and the webhook.
@Suite struct PushTests {
    /// Logs bob in once with a device token, then leaves him offline.
    @Test func theLogHasALinePerPushWithPayloadPrecedence() async throws {
        let server = try await TestServer.start { $0.pushTemplate = #"{"alert":"${fromClientId} wrote in ${convId}","sent":"${timestamp}"}"# }
        try await server.registerDevice("bob", token: "token-of-bobs-phone", deviceID: "bobs-phone")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])

        var withData = GenericCommand.text("one", cid: cid)
        withData.directMessage.pushData = #"{"alert":"from alice","_profile":"dev","_apns_team_id":"TEAM1"}"#
        let first = try await alice.request(withData).ackMessage
        let lines1 = try await PushLog.lines(server.config.pushLogPath, count: 1)
        let second = try await alice.sendText("two", cid: cid)
        let lines = try await PushLog.lines(server.config.pushLogPath, count: 2)
        #expect(lines1.count == 1)

        #expect(lines[0]["msgId"] == .string(first.uid))
        #expect(lines[0]["recipients"] == .strings(["bob"]))
        #expect(lines[0]["devices"] == .object(["bob": .strings(["token-of-bobs-phone"])]))
        #expect(lines[0]["payload"] == .object(["alert": .string("from alice")]))
        #expect(lines[0]["_profile"] == .string("dev") && lines[0]["_apns_team_id"] == .string("TEAM1"))
        // No pushData: the template, filled in.
        #expect(lines[1]["msgId"] == .string(second.uid))
        #expect(lines[1]["payload"] == .object([
            "alert": .string("alice wrote in \(cid)"), "sent": .string(String(second.t / 1000)),
        ]))
        try await server.stop()
    }

    @Test func theHooksPayloadComesFirst() async throws {
        struct Pusher: SwitchboardPlugin {
            let name = "pusher"
            func receiversOffline(_ request: ReceiversOfflineRequest) async throws -> ReceiversOfflineResult {
                ReceiversOfflineResult(pushMessage: .object(["alert": .string("from the hook"), "_profile": .string("prod")]))
            }
        }
        let server = try await TestServer.start(plugins: [Pusher()])
        try await server.registerDevice("bob", token: "token-of-bobs-phone", deviceID: "bobs-phone")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        var withData = GenericCommand.text("one", cid: cid)
        withData.directMessage.pushData = #"{"alert":"from alice"}"#
        _ = try await alice.request(withData)
        let line = try #require(try await PushLog.lines(server.config.pushLogPath, count: 1).first)
        #expect(line["payload"] == .object(["alert": .string("from the hook")]))
        #expect(line["_profile"] == .string("prod"))
        try await server.stop()
    }

    @Test func theWebhookIsTriedAgainUntilTheGatewayTakesThePush() async throws {
        let gateway = try await FakePushGateway.start(failingFirst: 2)
        let server = try await TestServer.start { config in
            config.pushProvider = .webhook(url: URL(string: "http://127.0.0.1:\(gateway.port)/push")!, attempts: 5, firstRetry: .milliseconds(20))
        }
        try await server.registerDevice("bob", token: "token-of-bobs-phone", deviceID: "bobs-phone")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("ping", cid: cid)
        let received = try await gateway.nextAccepted()
        #expect(received["msgId"] == .string(sent.uid))
        #expect(received["recipients"] == .strings(["bob"]))
        #expect(gateway.requests == 3)
        try await server.stop()
        try await gateway.stop()
    }

    @Test func pushConfigIsChecked() throws {
        let file = TestServer.temporaryDirectory() + ".yaml"
        for bad in ["push:\n  provider: pigeon\n", "push:\n  provider: webhook\n", "push:\n  template: 'not json'\n"] {
            try bad.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: ConfigError.self) { try ServerConfig.load(path: file) }
        }
        try "push:\n  provider: webhook\n  url: https://push.example.com/in\n  attempts: 3\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try ServerConfig.load(path: file).pushProvider == .webhook(url: URL(string: "https://push.example.com/in")!, attempts: 3, firstRetry: .seconds(1)))
    }
}

/// An operator's push gateway: refuses the first requests with 500, then keeps what it takes.
final class FakePushGateway: Sendable {
    private struct State {
        var requests = 0
        var accepted: [JSONValue] = []
    }

    private let state: WatchedValue<State>
    private let server: LocalHTTPServer
    var port: Int { server.port }

    private init(state: WatchedValue<State>, server: LocalHTTPServer) {
        self.state = state
        self.server = server
    }

    static func start(failingFirst failures: Int) async throws -> FakePushGateway {
        let state = WatchedValue(State())
        let router = Router()
        router.post("/push") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            let refuse = state.update { state in
                state.requests += 1
                guard state.requests > failures else { return true }
                if let json = try? JSONValue(parsing: String(buffer: body)) { state.accepted.append(json) }
                return false
            }
            return refuse ? .internalServerError : .ok
        }
        return FakePushGateway(state: state, server: try await LocalHTTPServer.start(router, label: "fake-push"))
    }

    var requests: Int { state.value.requests }

    func nextAccepted(timeout: Duration = .seconds(5)) async throws -> JSONValue {
        guard let push = await state.wait(timeout: timeout, take: { $0.accepted.first }) else {
            throw TestClient.Timeout(description: "no push accepted within \(timeout)")
        }
        return push
    }

    func stop() async throws {
        await server.stop()
    }
}

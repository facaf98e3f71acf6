import Foundation
import Hummingbird
import NIOCore
import SwitchboardJS
@testable import SwitchboardServer
import Testing

/// `AV.Cloud.httpRequest` and `fetch`: off unless `hooks.http.allow` lists the host, made by
/// the server, ended by the call's budget, capped in size.
@Suite(.storeBlind) struct ScriptHTTPTests {
    /// A service on loopback that hook scripts call.
    private static func service() async throws -> LocalHTTPServer {
        let router = Router()
        router.get("greeting") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/plain", .init("X-Greeting")!: "yes"], body: .init(byteBuffer: ByteBuffer(string: "hello")))
        }
        router.post("echo") { request, _ -> String in
            let body = try await request.body.collect(upTo: 1 << 20)
            return "\(request.headers[.contentType] ?? "-")|\(String(buffer: body))|\(request.uri.query ?? "-")"
        }
        router.post("translate") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let text = (try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: String])?["text"] ?? ""
            let json = try JSONSerialization.data(withJSONObject: ["text": text.uppercased()])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: json)))
        }
        router.get("missing") { _, _ -> Response in
            Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such thing")))
        }
        router.get("slow") { _, _ -> String in
            try await Task.sleep(for: .seconds(5))
            return "late"
        }
        router.get("big") { _, _ -> String in String(repeating: "x", count: 5000) }
        router.get("hop") { _, _ -> Response in Response(status: .found, headers: [.location: "/greeting"]) }
        router.get("away") { _, _ -> Response in Response(status: .found, headers: [.location: "http://elsewhere.invalid/greeting"]) }
        return try await LocalHTTPServer.start(router, label: "hook-http")
    }

    private static func services(allowing allow: [String], maxResponseBytes: Int = 1 << 20) throws -> ScriptServices {
        var config = ServerConfig()
        config.scriptHTTPAllowList = try HostAllowList(allow)
        config.scriptHTTPMaxResponseBytes = maxResponseBytes
        return ScriptServices(http: config.scriptHTTP)
    }

    /// The result of `_messageReceived` in a script whose handler is `body`. The budget
    /// bounds the wait for answers: generous, since tests in parallel slow loopback too.
    private static func run(_ body: String, services: ScriptServices, budget: Duration = .seconds(10)) async throws -> ScriptTrial.Report.Outcome {
        try await ScriptTrial.run(
            source: "AV.Cloud.onIMMessageReceived(\(body));", file: "http.js", hook: "_messageReceived", paramsJSON: "{}",
            budget: budget, services: services
        ).outcome
    }

    @Test func offUnlessHostsAreListed() async throws {
        #expect(ServerConfig().scriptHTTP == nil)
        let outcome = try await Self.run("() => fetch('http://127.0.0.1:1/').then(() => ({}))", services: ScriptServices())
        guard case .failed(let message) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(message.hasPrefix("outbound HTTP is off: list the hosts scripts may call in hooks.http.allow"))
    }

    @Test func fetchAndHTTPRequestReachAnAllowedHost() async throws {
        let server = try await Self.service()
        let base = "http://127.0.0.1:\(server.port)"
        let services = try Self.services(allowing: ["127.0.0.1:\(server.port)"])
        let fetched = try await Self.run("""
            async () => {
              const response = await fetch('\(base)/greeting');
              return { content: [response.ok, response.status, response.headers.get('x-greeting'), await response.text()].join(' ') };
            }
            """, services: services)
        #expect(fetched == .value(#"{"content":"true 200 yes hello"}"#))
        // LeanEngine's callback style, with params in the query and an object body sent as a form.
        let posted = try await Self.run("""
            function (request, response) {
              AV.Cloud.httpRequest({
                method: 'POST', url: '\(base)/echo', params: { q: 'a b' }, body: { name: 'Zoë', n: 2 },
                success: function (http) { response.success({ content: http.status + ' ' + http.text }); },
                error: function (http) { response.error('failed: ' + http.status); },
              });
            }
            """, services: services)
        #expect(posted == .value(#"{"content":"200 application/x-www-form-urlencoded|name=Zo%C3%AB&n=2|q=a%20b"}"#))
        let json = try await Self.run("""
            () => AV.Cloud.httpRequest({ method: 'POST', url: '\(base)/translate', headers: { 'Content-Type': 'application/json' }, body: { text: 'hi' } })
              .then((http) => ({ content: http.data.text }))
            """, services: services)
        #expect(json == .value(#"{"content":"HI"}"#))
        await server.stop()
    }

    @Test func anErrorStatusRejectsHTTPRequestButNotFetch() async throws {
        let server = try await Self.service()
        let url = "http://127.0.0.1:\(server.port)/missing"
        let services = try Self.services(allowing: ["127.0.0.1"])
        let outcome = try await Self.run("""
            async () => {
              const fetched = await fetch('\(url)');
              const rejected = await AV.Cloud.httpRequest({ url: '\(url)' }).then(() => 'resolved', (http) => http.status + ' ' + http.text);
              return { content: fetched.status + ' ' + fetched.ok + ' / ' + rejected };
            }
            """, services: services)
        #expect(outcome == .value(#"{"content":"404 false / 404 no such thing"}"#))
        await server.stop()
    }

    @Test func otherHostsAreRefusedAndRedirectsAreCheckedHopByHop() async throws {
        let server = try await Self.service()
        let base = "http://127.0.0.1:\(server.port)"
        let services = try Self.services(allowing: ["127.0.0.1:\(server.port)"])
        let outcome = try await Self.run("""
            async () => {
              const outcome = (promise) => promise.then((r) => 'ok ' + r.url.replace('\(base)', ''), (e) => e.message);
              return { content: [
                await outcome(fetch('http://localhost:\(server.port)/greeting')),
                await outcome(fetch('http://127.0.0.1:1/greeting')),
                await outcome(fetch('file:///etc/passwd')),
                await outcome(fetch('\(base)/hop')),
                await outcome(fetch('\(base)/away')),
                await outcome(fetch('\(base)/hop', { redirect: 'manual' }).then((r) => ({ url: r.status + ' ' + r.headers.get('location') }))),
              ].join('\\n') };
            }
            """, services: services)
        guard case .value(let json) = outcome, let lines = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])?["content"]?.split(separator: "\n") else {
            Issue.record("expected a value, got \(outcome)")
            return
        }
        #expect(lines == [
            "localhost is not in hooks.http.allow; scripts may call only the hosts listed there",
            "127.0.0.1 is not in hooks.http.allow; scripts may call only the hosts listed there",
            "file:///etc/passwd is not an http or https URL",
            "ok /greeting",
            "elsewhere.invalid is not in hooks.http.allow; scripts may call only the hosts listed there",
            "ok 302 /greeting",
        ])
        await server.stop()
    }

    @Test func aSlowServerCostsTheCallItsBudgetNotMore() async throws {
        let server = try await Self.service()
        let services = try Self.services(allowing: ["127.0.0.1"])
        let outcome = try await Self.run(
            "() => fetch('http://127.0.0.1:\(server.port)/slow').then(() => ({ content: 'answered' }), (e) => ({ content: e.message }))",
            services: services, budget: .milliseconds(300)
        )
        guard case .value(let json) = outcome else {
            Issue.record("expected a value, got \(outcome)")
            return
        }
        #expect(json.contains("/slow did not answer within the call's budget"))
        await server.stop()
    }

    @Test func aLargeResponseIsRefused() async throws {
        let server = try await Self.service()
        let services = try Self.services(allowing: ["127.0.0.1"], maxResponseBytes: 1000)
        let outcome = try await Self.run(
            "() => fetch('http://127.0.0.1:\(server.port)/big').then((r) => r.text()).then((t) => ({ content: '' + t.length }), (e) => ({ content: e.message }))",
            services: services
        )
        #expect(outcome == .value(#"{"content":"the response from http://127.0.0.1:\#(server.port)/big is larger than 1000 bytes (hooks.http.maxResponseBytes)"}"#))
        await server.stop()
    }

    @Test func allowListEntries() throws {
        let list = try HostAllowList(["api.example.com", "*.example.org", "127.0.0.1:8080", "[::1]:9000", "Mixed.Case.COM."])
        #expect(list.allows(host: "API.example.com", port: 443))
        #expect(list.allows(host: "a.b.example.org", port: 80))
        #expect(!list.allows(host: "example.org", port: 80))
        #expect(!list.allows(host: "evilexample.org", port: 80))
        #expect(!list.allows(host: "api.example.com.evil.net", port: 443))
        #expect(list.allows(host: "127.0.0.1", port: 8080))
        #expect(!list.allows(host: "127.0.0.1", port: 8081))
        #expect(list.allows(host: "::1", port: 9000))
        #expect(list.allows(host: "[::1]", port: 9000))
        #expect(list.allows(host: "mixed.case.com", port: 80))
        for bad in ["", "*", "http://api.example.com", "a.com:0", "a.com:x", "exa mple.com", "a.*.com"] {
            #expect(throws: ConfigError.self, "\(bad)") { try HostAllowList([bad]) }
        }
    }

    @Test func theConfigFileTurnsItOn() throws {
        let directory = TestServer.temporaryDirectory()
        let path = directory + "/switchboard.yaml"
        try "hooks:\n  http:\n    allow: [\"api.example.com\"]\n    maxResponseBytes: 4096\n".write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ServerConfig.load(path: path)
        #expect(config.scriptHTTPAllowList == (try HostAllowList(["api.example.com"])))
        #expect(config.scriptHTTPMaxResponseBytes == 4096)
        try "hooks:\n  http:\n    allow: [\"https://api.example.com\"]\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try ServerConfig.load(path: path) }
    }

    /// A LeanEngine project as people write them: the entry requires a helper that calls an
    /// outside service in the callback style; live traffic goes through it.
    @Test func aProjectCallsAServiceOnLiveTraffic() async throws {
        let service = try await Self.service()
        let allow = try HostAllowList(["127.0.0.1:\(service.port)"])
        let server = try await TestServer.start(scripts: [
            "translator/cloud.js": """
                var AV = require('leanengine');
                var translate = require('./cloud/translate');
                AV.Cloud.define('_messageReceived', function (request, response) {
                  translate(request.params.content, function (error, text) {
                    if (error) return response.error(error);
                    response.success({ content: text });
                  });
                });
                """,
            "translator/cloud/translate.js": """
                var AV = require('leanengine');
                module.exports = function (text, callback) {
                  AV.Cloud.httpRequest({
                    method: 'POST', url: process.env.TRANSLATOR + '/translate',
                    headers: { 'Content-Type': 'application/json' }, body: { text: text },
                  }).then(function (http) { callback(null, http.data.text); }, function (http) { callback('translator said ' + http.status); });
                };
                """,
        ]) { config in
            config.scriptHTTPAllowList = allow
            // Room for the round trip while the rest of the suite loads the machine.
            config.hooks.defaultBudget = .seconds(10)
            config.scriptEnvironment = ["TRANSLATOR": "http://127.0.0.1:\(service.port)"]
        }
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.request(.text("good morning", cid: cid))
        #expect(try await bob.nextMessage().msg == "GOOD MORNING")
        try await server.stop()
        await service.stop()
    }
}

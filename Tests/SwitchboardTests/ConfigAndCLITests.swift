import Foundation
import Logging
import SwitchboardHooks
import SwitchboardServer
import SwitchboardStore
import Testing

@testable import SwitchboardCLI

@Suite(.storeBlind) struct ConfigAndCLITests {
    private func write(_ yaml: String) throws -> String {
        let path = TestServer.temporaryDirectory() + "/switchboard.yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theShippedConfigLoadsAndMatchesTheDefaults() throws {
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../config/switchboard.yaml").path
        #expect(try ServerConfig.load(path: shipped) == ServerConfig())
    }

    @Test func hookPoliciesComeFromTheHooksSection() throws {
        let config = try ServerConfig.load(path: write("""
            hooks:
              budgetMs: 250
              onFailure: closed
              points:
                _messageReceived: { budgetMs: 40, onFailure: open }
              handlers:
                link-filter: { priority: 99, budgetMs: 5 }
                noisy: { enabled: false }
              env: { SITE: demo }
            """))
        #expect(config.hooks.defaultBudget == .milliseconds(250))
        #expect(config.hooks.defaultFailurePolicy == .closed)
        #expect(config.hooks.points[.messageReceived] == .init(budget: .milliseconds(40), failurePolicy: .open))
        #expect(config.hooks.handlers["link-filter"]?.priority == 99)
        #expect(config.hooks.handlers["noisy"]?.enabled == false)
        #expect(config.scriptSettings.env == ["SITE": "demo"])
    }

    @Test func unknownHookPointsAreAnError() throws {
        let path = try write("hooks:\n  points:\n    _messageRecieved: { budgetMs: 1 }\n")
        #expect(throws: ConfigError.self) { try ServerConfig.load(path: path) }
    }

    @Test func housekeepingIntervalsComeFromLimitsAndMustBePositive() throws {
        let config = try ServerConfig.load(path: write("limits:\n  expirySweepSeconds: 5\n"))
        #expect(config.expirySweepSeconds == 5)
        let zero = try write("limits:\n  redeliverySeconds: 0\n")
        #expect(throws: ConfigError.self) { try ServerConfig.load(path: zero) }
    }

    @Test func connectionQueueAndDeviceLimitsComeFromTheFileAndMustBePositive() throws {
        let config = try ServerConfig.load(path: write("""
            limits:
              requestHeadTimeoutSeconds: 3
              httpIdleTimeoutSeconds: 20
              outboundQueueCommands: 50
              backgroundQueueJobs: 70
              pushQueueJobs: 80
              shutdownDrainSeconds: 2
            messages:
              deviceRetentionDays: 7
            """))
        #expect(config.requestHeadTimeoutSeconds == 3 && config.httpIdleTimeoutSeconds == 20)
        #expect(config.outboundQueueCommands == 50 && config.backgroundQueueJobs == 70 && config.pushQueueJobs == 80)
        #expect(config.shutdownDrainSeconds == 2 && config.deviceRetentionDays == 7)
        for bad in ["limits:\n  outboundQueueCommands: 0\n", "limits:\n  backgroundQueueJobs: 0\n", "messages:\n  deviceRetentionDays: 0\n"] {
            let path = try write(bad)
            #expect(throws: ConfigError.self) { try ServerConfig.load(path: path) }
        }
    }

    @Test func restRateLimitsComeFromTheRestSectionAndAreNotNegative() throws {
        let config = try ServerConfig.load(path: write("rest:\n  rateLimits:\n    messagesPerMinute: 3\n    broadcastsPerDay: 0\n"))
        #expect(config.restRateLimits.messagesPerMinute == 3 && config.restRateLimits.broadcastsPerDay == 0)
        #expect(config.restRateLimits.subscriberBroadcastsPerMinute == 30)
        let negative = try write("rest:\n  rateLimits:\n    broadcastsPerMinute: -1\n")
        #expect(throws: ConfigError.self) { try ServerConfig.load(path: negative) }
    }

    @Test func hooksListShowsEachChainInOrderWithItsPolicy() {
        var settings = HookSettings(defaultBudget: .milliseconds(300))
        settings.handlers["second"] = .init(policy: .init(failurePolicy: .closed))
        let pipeline = HookPipeline(settings: settings, logger: Logger(label: "test"))
        pipeline.register(PluginHandler(ScriptedPlugin(name: "first", priority: 5) { _ in .passThrough }))
        pipeline.register(PluginHandler(ScriptedPlugin(name: "second", budget: .milliseconds(20)) { _ in .passThrough }))
        let lines = HooksList.render(pipeline).split(separator: "\n").map(String.init)
        #expect(lines[0] == "_messageReceived")
        #expect(lines[1] == "  #  handler  kind    priority  budget  on failure  version")
        #expect(lines[2] == "  1  first    plugin  5         300 ms  open        1")
        #expect(lines[3] == "  2  second   plugin  0         20 ms   closed      1")
        #expect(lines.contains("_messageSent (observes)"))
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
    }

    @Test func hooksTestStopsWhatTheVMCannotStop() async throws {
        // An endless Promise chain once kept `hooks test` running forever.
        let script = TestServer.temporaryDirectory() + "/chain.js"
        try "AV.Cloud.onIMMessageReceived(() => { (async () => { for (;;) await 0; })(); return {}; });"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let (printed, status) = try await Self.switchboard(["hooks", "test", script, "--hook", "_messageReceived", "--budget-ms", "50"])
        #expect(printed.contains("timed out"))
        #expect(status != 0)
    }

    /// `hooks test --data`: a hook that reads app data tried offline, against rows of a
    /// fixtures file; its writes go to a scratch copy.
    @Test func hooksTestReadsAppDataFromAFixturesFile() async throws {
        let folder = TestServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            AV.Cloud.onIMMessageReceived(async (request) => {
              const entry = await new AV.Query('Blacklist').equalTo('blocked', request.params.fromPeer).first();
              if (entry) return { drop: true, code: 4500, detail: 'blocked by ' + entry.get('owner') };
              const conversation = await new AV.Query('_Conversation').get(request.params.convId);
              await new AV.Object('Seen').save({ from: request.params.fromPeer });
              return { content: conversation.get('name') + ': ' + request.params.content };
            });
            """.write(toFile: folder + "/blacklist.js", atomically: true, encoding: .utf8)
        try """
            {"Blacklist": [{"owner": "alice", "blocked": "mallory"}],
             "_Conversation": [{"objectId": "5f0c1b2a3d4e5f6a7b8c9d0e", "name": "Tea", "m": ["alice", "bob"]}]}
            """.write(toFile: folder + "/data.json", atomically: true, encoding: .utf8)
        func run(_ sender: String, data: Bool = true) async throws -> (output: String, status: Int32) {
            let params = folder + "/\(sender).json"
            try #"{"fromPeer":"\#(sender)","convId":"5f0c1b2a3d4e5f6a7b8c9d0e","content":"hi"}"#.write(toFile: params, atomically: true, encoding: .utf8)
            return try await Self.switchboard(
                ["hooks", "test", folder + "/blacklist.js", "--hook", "_messageReceived", "--params", params] + (data ? ["--data", folder + "/data.json"] : []))
        }
        let (blocked, blockedStatus) = try await run("mallory")
        #expect(blocked.contains(#""detail":"blocked by alice""#) && blocked.contains(#""drop":true"#), "\(blocked)")
        #expect(blockedStatus == 0)
        let (passed, passedStatus) = try await run("bob")
        #expect(passed.contains("Tea: hi"), "\(passed)")
        #expect(passedStatus == 0)
        let (without, withoutStatus) = try await run("bob", data: false)
        #expect(without.contains("--data FILE or --store"), "\(without)")
        #expect(withoutStatus != 0)
    }

    /// `hooks test --store`: the hook reads what the server keeps, and cannot change it.
    @Test(.disabled(if: TestDatabase.usesPostgres, "the config names SQLite's folder")) func hooksTestReadsTheServersStoreReadOnly() async throws {
        let folder = TestServer.temporaryDirectory()
        let server = try await TestServer.start(dataDirectory: folder)
        _ = try await server.create("Blacklist", ["owner": "bob", "blocked": "mallory"])
        try await server.stop()
        try """
            AV.Cloud.onIMMessageReceived(async (request) => {
              const entry = await new AV.Query('Blacklist').equalTo('blocked', request.params.fromPeer).first();
              if (request.params.content === 'write') await new AV.Object('Seen').save({ from: request.params.fromPeer });
              return { content: entry ? 'blocked by ' + entry.get('owner') : 'clear' };
            });
            """.write(toFile: folder + "/check.js", atomically: true, encoding: .utf8)
        try "storage: { dataDir: \(folder) }\n".write(toFile: folder + "/config.yaml", atomically: true, encoding: .utf8)
        func run(_ content: String) async throws -> String {
            try #"{"fromPeer":"mallory","content":"\#(content)"}"#.write(toFile: folder + "/params.json", atomically: true, encoding: .utf8)
            return try await Self.switchboard([
                "hooks", "test", folder + "/check.js", "--hook", "_messageReceived", "--params", folder + "/params.json", "--store", "-c", folder + "/config.yaml",
            ]).output
        }
        #expect(try await run("read").contains(#""content":"blocked by bob""#))
        #expect(try await run("write").contains("hooks test reads the server's store and never writes to it"))
    }

    /// `hooks test --store` with `hooks.storage`: the hook reads what the server's hooks
    /// would, the other server's data, and writes nothing there.
    @Test func hooksTestStoreReadsTheHooksStorageServer() async throws {
        let storage = try await TestServer.start()
        _ = try await storage.create("Blacklist", ["owner": "alice", "blocked": "mallory"])
        let folder = TestServer.temporaryDirectory()
        _ = try SQLiteStore(path: folder + "/switchboard.sqlite")
        try """
            storage: { dataDir: '\(folder)' }
            hooks:
              storage: { url: 'http://127.0.0.1:\(storage.port)', appId: \(storage.config.appID), masterKey: \(storage.config.masterKey) }
            """.write(toFile: folder + "/switchboard.yaml", atomically: true, encoding: .utf8)
        try """
            AV.Cloud.onIMMessageReceived(async (request) => {
              const entry = await new AV.Query('Blacklist').equalTo('blocked', request.params.fromPeer).first();
              if (entry) return { drop: true, code: 4500, detail: 'blocked by ' + entry.get('owner') };
              const saved = await new AV.Object('Seen').save({ from: request.params.fromPeer }).then(() => 'saved', (e) => e.code);
              return { content: saved + ': ' + request.params.content };
            });
            """.write(toFile: folder + "/blacklist.js", atomically: true, encoding: .utf8)
        func run(_ sender: String) async throws -> String {
            let params = folder + "/\(sender).json"
            try #"{"fromPeer":"\#(sender)","content":"hi"}"#.write(toFile: params, atomically: true, encoding: .utf8)
            let (output, status) = try await Self.switchboard([
                "hooks", "test", folder + "/blacklist.js", "--hook", "_messageReceived", "--params", params, "--store", "--config", folder + "/switchboard.yaml",
                // Room for loopback round trips while the rest of the suite loads the machine.
                "--budget-ms", "10000",
            ])
            #expect(status == 0, "\(output)")
            return output
        }
        let blocked = try await run("mallory")
        #expect(blocked.contains(#""detail":"blocked by alice""#), "\(blocked)")
        let passed = try await run("bob")
        #expect(passed.contains(#""content":"119: hi""#), "\(passed)")
        #expect(try await storage.find("Seen", [:]).isEmpty)
        try await storage.stop()
    }

    /// What `switchboard` printed when run with `arguments`, and how it exited; waited for
    /// without holding a thread.
    static func switchboard(_ arguments: [String]) async throws -> (output: String, status: Int32) {
        let output = TestServer.temporaryDirectory() + "/switchboard-\(UUID().uuidString.prefix(8)).out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return (try String(contentsOfFile: output, encoding: .utf8), status)
    }
}

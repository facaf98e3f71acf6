import Foundation
import SwitchboardJSON
import Testing

/// An app put into a Switchboard through its REST API for `leancloud export` to read back:
/// app classes, conversations of each kind with blocked and silenced members, a system
/// conversation's subscribers, messages; and what an export folder of it must hold.
struct ExportedApp {
    /// Object ids by class.
    var objects: [String: [String]] = [:]
    var conversations: [String] = []
    /// Blocked and silenced members by conversation (system conversations have none listed).
    var lists: [String: (blocked: [String], silenced: [String])] = [:]
    /// Subscribers by system conversation.
    var subscribers: [String: [String]] = [:]
    var messages: [String] = []
    /// Managers by conversation, and the saved devices' tokens.
    var managers: [String: [String]] = [:]
    var deviceTokens: [String] = []

    static func fill(_ server: TestServer, objects count: Int, messages: Int) async throws -> ExportedApp {
        var app = ExportedApp()
        for index in 0..<count {
            let body: [String: Any] = ["owner": "user\(index)", "blocked": ["x\(index)"], "since": ["__type": "Date", "iso": "2026-01-0\(index % 9 + 1)T00:00:00.000Z"]]
            app.objects["Blacklist", default: []].append(try #require(try await server.rest("POST", "/1.1/classes/Blacklist", body: body).1["objectId"] as? String))
        }
        for name in ["night", "day"] {
            app.objects["Settings", default: []].append(try #require(try await server.rest("POST", "/1.1/classes/Settings", body: ["theme": name]).1["objectId"] as? String))
        }
        let team = try await app.conversation(server, name: "team", members: ["alice", "bob", "carol"], blocked: ["eve"], silenced: ["carol"])
        let quiet = try await app.conversation(server, name: "quiet", members: ["alice", "dave"], blocked: [], silenced: [])
        _ = try await app.conversation(server, name: "lobby", members: [], blocked: ["mallory", "trudy"], silenced: ["oscar"], path: "chatrooms")
        let news = try #require(try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"]).1["objectId"] as? String)
        app.conversations.append(news)
        for client in ["alice", "bob"] {
            #expect(try await server.rest("POST", "/1.2/rtm/service-conversations/\(news)/subscribers", body: ["client_id": client]).0 == 200)
            app.subscribers[news, default: []].append(client)
        }
        #expect(try await server.rest("POST", "/1.2/rtm/conversations/\(team)/member-infos", body: ["clientId": "bob", "role": "Manager"]).0 == 200)
        app.managers[team] = ["bob"]
        for token in [String(repeating: "ab", count: 32), String(repeating: "cd", count: 32)] {
            #expect(try await server.rest("POST", "/1.1/installations", body: ["deviceType": "ios", "deviceToken": token, "channels": ["bob"]]).0 < 300)
            app.deviceTokens.append(token)
        }
        _ = try await app.send(server, count: messages - messages / 2, in: team)
        _ = try await app.send(server, count: messages / 2, in: quiet)
        return app
    }

    /// A conversation (or chat room) with its lists.
    mutating func conversation(
        _ server: TestServer, name: String, members: [String], blocked: [String], silenced: [String], path: String = "conversations"
    ) async throws -> String {
        let base = "/1.2/rtm/\(path)"
        var body: [String: Any] = ["name": name]
        if !members.isEmpty {
            body["m"] = members
            body["c"] = members[0]
        }
        let id = try #require(try await server.rest("POST", base, body: body).1["objectId"] as? String)
        if !blocked.isEmpty { #expect(try await server.rest("POST", "\(base)/\(id)/blacklists", body: ["client_ids": blocked]).0 == 200) }
        if !silenced.isEmpty { #expect(try await server.rest("POST", "\(base)/\(id)/permanent-silenceds", body: ["client_ids": silenced]).0 == 200) }
        conversations.append(id)
        lists[id] = (blocked, silenced)
        return id
    }

    /// Sends `count` messages from alice; their ids.
    mutating func send(_ server: TestServer, count: Int, in conversation: String) async throws -> [String] {
        var sent: [String] = []
        for index in 0..<count {
            let (status, answer) = try await server.rest("POST", "/1.2/rtm/conversations/\(conversation)/messages", body: ["from_client": "alice", "message": "message \(index)"])
            #expect(status == 200)
            sent.append(try #require(answer["msg-id"] as? String))
        }
        messages += sent
        return sent
    }

    /// Checks that the folder holds every item once: objects, conversations, lists,
    /// subscribers, messages oldest first.
    func expectExported(in folder: String) throws {
        for (className, ids) in objects {
            let rows = try Self.lines(folder, "classes/\(className).jsonl")
            #expect(rows.compactMap { $0["objectId"]?.stringValue }.sorted() == ids.sorted(), "\(className)")
        }
        let conversationRows = try Self.lines(folder, "classes/_Conversation.jsonl")
        #expect(conversationRows.compactMap { $0["objectId"]?.stringValue }.sorted() == conversations.sorted())
        let roles = try Self.lines(folder, "classes/_ConversationMemberInfo.jsonl").filter { $0["role"] == "Manager" }
        #expect(roles.map { ($0["cid"]?.stringValue ?? "") + "/" + ($0["clientId"]?.stringValue ?? "") }.sorted()
            == managers.flatMap { conversation, clients in clients.map { conversation + "/" + $0 } }.sorted())
        let devices = try Self.lines(folder, "classes/_Installation.jsonl")
        #expect(devices.compactMap { $0["deviceToken"]?.stringValue }.sorted() == deviceTokens.sorted())
        #expect(devices.allSatisfy { $0["channels"] == ["bob"] && $0["deviceType"] == "ios" })

        let listRows = try Self.lines(folder, "conversations/lists.jsonl")
        #expect(listRows.compactMap { $0["conv-id"]?.stringValue }.sorted() == lists.keys.sorted())
        for row in listRows {
            let expected = lists[row["conv-id"]?.stringValue ?? ""]
            #expect(row["blocked"]?.arrayValue?.compactMap(\.stringValue).sorted() == expected?.blocked.sorted(), "\(row.jsonString)")
            #expect(row["silenced"]?.arrayValue?.compactMap(\.stringValue).sorted() == expected?.silenced.sorted(), "\(row.jsonString)")
        }

        let subscriptionRows = try Self.lines(folder, "conversations/subscribers.jsonl")
        let subscriptions = subscriptionRows.map { ($0["conv-id"]?.stringValue ?? "") + "/" + ($0["client-id"]?.stringValue ?? "") }
        #expect(subscriptions.sorted() == subscribers.flatMap { conversation, clients in clients.map { conversation + "/" + $0 } }.sorted())
        #expect(subscriptionRows.allSatisfy { ($0["timestamp"]?.int64Value ?? 0) > 0 })

        let rows = try Self.messageRows(folder)
        #expect(rows.compactMap { $0["msg-id"]?.stringValue }.sorted() == messages.sorted())
        let times = rows.compactMap { $0["timestamp"]?.int64Value }
        #expect(times == times.sorted() && times.count == messages.count, "oldest first")
        #expect(rows.allSatisfy { $0["data"]?.stringValue?.hasPrefix("message ") == true && $0["from"] == "alice" })
    }

    static func exportArguments(_ server: TestServer, _ folder: String, rate: Double = 1000) -> [String] {
        [
            "leancloud", "export", "--server", "http://127.0.0.1:\(server.port)", "--app-id", server.config.appID,
            "--master-key", server.config.masterKey, "--out", folder, "--rate", String(rate),
        ]
    }

    static func manifest(_ folder: String) throws -> JSONValue {
        try JSONValue(parsing: String(contentsOfFile: folder + "/manifest.json", encoding: .utf8))
    }

    static func lines(_ folder: String, _ file: String) throws -> [JSONValue] {
        try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    static func messageRows(_ folder: String) throws -> [JSONValue] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/messages").sorted()
        return try files.flatMap { try lines(folder, "messages/" + $0) }
    }

    static func messages(_ folder: String) throws -> [String] {
        try messageRows(folder).compactMap { $0["msg-id"]?.stringValue }
    }

    /// Lines of each file the manifest records.
    static func lineCounts(_ folder: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for file in (try manifest(folder)["state"]?["files"]?.objectValue ?? [:]).keys {
            counts[file] = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").count
        }
        return counts
    }

    /// Runs `switchboard` with `arguments` and sends it `signal` once the manifest's state
    /// shows `progress`: whether it was sent before the run ended, how the run ended (the
    /// exit status, or the signal that ended it) and what it printed.
    static func interrupted(
        _ arguments: [String], folder: String, with signal: Int32 = SIGKILL, when progress: @escaping (JSONValue) -> Bool
    ) async throws -> (sent: Bool, ending: Process.TerminationReason, status: Int32, output: String) {
        let output = TestServer.temporaryDirectory() + "/export-\(UUID().uuidString.prefix(8)).out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        let (ended, finish) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in finish.finish() }
        try process.run()
        var sent = false
        let deadline = ContinuousClock.now + .seconds(120)
        while process.isRunning, ContinuousClock.now < deadline {
            if let state = try? manifest(folder)["state"], progress(state) {
                sent = kill(process.processIdentifier, signal) == 0
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        for await _ in ended {}
        return (sent, process.terminationReason, process.terminationStatus, try String(contentsOfFile: output, encoding: .utf8))
    }
}

import Foundation
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON
import SwitchboardServer
import SwitchboardWire
import Testing

/// `switchboard leancloud import` of IM data: an export folder and the console's files
/// into the configured store (SQLite, or PostgreSQL under scripts/with-postgres), then a
/// real server on that store and real clients over WebSockets.
extension ConfigAndCLITests {
    /// A config naming `folder`'s store: its SQLite file, or the PostgreSQL database a test
    /// server on `folder` uses.
    static func importConfig(for folder: String) async throws -> String {
        var storage = "dataDir: \(folder)"
        if let url = try await TestDatabase.url(for: folder) { storage += ", postgres: { url: \"\(url)\" }" }
        let path = folder + "/config.yaml"
        try "storage: { \(storage) }\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let group = "5f0000000000000000000001"
    static let system = "5f0000000000000000000004"
    static let movedAt: Int64 = 1_700_000_000_000

    /// An export of a team chat with history of every kind, a system conversation with
    /// subscribers, devices and an app class; with rows no import can use.
    static func teamExport() throws -> ExportFolder {
        let export = try ExportFolder()
        let created = movedAt - 86_400_000
        try export.append("classes/_Conversation.jsonl", rows: [
            ImportStoreTests.group,
            ImportStoreTests.conversation(system, ["sys": true, "m": [], "name": "News"]),
        ])
        try export.append("classes/_ConversationMemberInfo.jsonl", [
            .row(["cid": .string(group), "clientId": "bob", "role": "Manager", "objectId": "r1"]),
            .row(["cid": .string(group), "clientId": "carol", "role": "Admin", "objectId": "r2"]),
            // A later run's lines for carol: made manager, then a member again; the last stays.
            .row(["cid": .string(group), "clientId": "carol", "role": "Manager", "objectId": "r3"]),
            .row(["cid": .string(group), "clientId": "carol", "role": "Member", "objectId": "r3"]),
        ])
        try export.append("conversations/lists.jsonl", rows: [["conv-id": .string(group), "blocked": ["mallory"], "silenced": ["dave"]]])
        try export.append("conversations/subscribers.jsonl", rows: [
            ["conv-id": .string(system), "client-id": "bob", "timestamp": .int(created)],
        ])
        // Ten messages, two of them at one time, then a broken line, a row without an id,
        // and the history of a temporary conversation LeanCloud did not list.
        var messages: [ExportFolder.Line] = (0..<10).map { index in
            .row(["msg-id": .string("m\(index)"), "conv-id": .string(group), "from": index.isMultiple(of: 2) ? "alice" : "bob",
                  "timestamp": .int(created + Int64(index == 5 ? 4 : index) * 1000), "data": .string("message \(index)")])
        }
        messages += [
            .row(["msg-id": "s1", "conv-id": .string(system), "from": "system", "timestamp": .int(created + 20_000), "data": "news"]),
            .raw(#"{"msg-id": "broken", "conv-id""#),
            .row(["conv-id": .string(group), "from": "alice", "timestamp": .int(created), "data": "no id"]),
            .row(["msg-id": "t1", "conv-id": "_tmp:5f00000000000000000000aa", "from": "alice", "timestamp": .int(created), "data": "gone"]),
            .row(["msg-id": "t2", "conv-id": "_tmp:5f00000000000000000000aa", "from": "bob", "timestamp": .int(created + 1), "data": "gone"]),
        ]
        try export.append("messages/000001.jsonl", messages)
        try export.append("classes/_Installation.jsonl", rows: [
            ["objectId": "i1", "deviceType": "ios", "deviceToken": "apns-bob", "channels": ["bob"], "badge": 2,
             "createdAt": ExportFolder.iso(created), "updatedAt": ExportFolder.iso(created)],
        ])
        try export.append("classes/Blacklist.jsonl", rows: [
            ["objectId": "b1", "owner": "bob", "blocked": ["mallory"], "createdAt": ExportFolder.iso(created), "updatedAt": ExportFolder.iso(created)],
        ])
        return export
    }

    @Test func anExportFolderComesAcrossWithItsHistoryReadAndPagedInItsOrder() async throws {
        let folder = TestServer.temporaryDirectory()
        let export = try Self.teamExport()
        let config = try await Self.importConfig(for: folder)

        let dry = try await Self.switchboard(["leancloud", "import", export.path, "--dry-run", "-c", config])
        #expect(dry.output.contains("messages/000001.jsonl: messages: 13 read, nothing stored (dry run), 2 unreadable"), "\(dry.output)")
        let first = try await Self.switchboard(["leancloud", "import", export.path, "-c", config])
        let lines = first.output
        #expect(first.status != 0, "rows were left out: \(lines)")
        for expected in [
            "classes/_Conversation.jsonl: _Conversation: 2 read, 2 stored, 0 already there",
            "classes/_ConversationMemberInfo.jsonl:2: skipped: unknown role Admin: LeanCloud's are Owner, Manager and Member",
            "_ConversationMemberInfo: 3 read, 1 stored, 2 already there, 1 unreadable",
            "conversations/lists.jsonl: blocked and silenced members: 1 read, 1 stored, 0 already there",
            "conversations/subscribers.jsonl: subscribers: 1 read, 1 stored, 0 already there",
            "messages/000001.jsonl:12: skipped: not valid JSON",
            "messages/000001.jsonl:13: skipped: msg-id is missing",
            "messages/000001.jsonl:14: skipped 2 messages from here on: no conversation _tmp:5f00000000000000000000aa here or in the export",
            "messages/000001.jsonl: messages: 13 read, 11 stored, 0 already there, 2 skipped, 2 unreadable",
            "classes/_Installation.jsonl: _Installation: 1 read, 1 stored, 0 already there",
            "classes/Blacklist.jsonl: Blacklist: 1 read, 1 stored, 0 already there",
        ] {
            #expect(lines.contains(expected), "\(expected)\nnot in\n\(lines)")
        }
        // In the order the brief gives: conversations before what belongs to them, app classes last.
        let order = ["_Conversation.jsonl: ", "_ConversationMemberInfo.jsonl: ", "lists.jsonl: ", "subscribers.jsonl: ", "000001.jsonl: ", "_Installation.jsonl: ", "Blacklist.jsonl: "]
        let places = order.compactMap { lines.range(of: $0)?.lowerBound }
        #expect(places.count == order.count && places == places.sorted(), "\(lines)")
        let again = try await Self.switchboard(["leancloud", "import", export.path, "-c", config])
        #expect(again.output.contains("messages: 13 read, 0 stored, 11 already there, 2 skipped, 2 unreadable"), "\(again.output)")
        #expect(again.output.contains("_Conversation: 2 read, 0 stored, 2 already there"), "\(again.output)")

        let server = try await TestServer.start(dataDirectory: folder)
        // Nothing from before the move is unread or delivered again.
        let bob = try await server.login("bob", subprotocol: .protobuf3)
        // A login's catch-up is sent while the login is handled.
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .unread || $0.cmd == .direct }.isEmpty)
        // History pages back by time and message id, in the export's order (m4 and m5 share a time).
        var seen: [String] = []
        var page = try await bob.request(.logs(cid: Self.group, limit: 3)).logsMessage.logs
        while let oldest = page.first {
            seen.insert(contentsOf: page.map(\.msgID), at: 0)
            var older = GenericCommand.logs(cid: Self.group, limit: 3, t: oldest.timestamp)
            older.logsMessage.mid = oldest.msgID
            page = try await bob.request(older).logsMessage.logs
        }
        #expect(seen == (0..<10).map { "m\($0)" })
        // The conversation as clients query it.
        let found = try await bob.queryConversations(where: #"{"objectId":"\#(Self.group)"}"#)
        #expect(found.first?["name"] as? String == "Team" && found.first?["topic"] as? String == "plans")
        #expect(found.first?["m"] as? [String] == ["alice", "bob", "carol", "dave"] && found.first?["mu"] as? [String] == ["carol"])

        // What arrives after the move counts as unread as usual.
        let alice = try await server.login("alice")
        try await alice.sendText("after the move", cid: Self.group)
        let carol = try await server.login("carol", subprotocol: .protobuf3)
        let unread = try await carol.next { $0.cmd == .unread }.unreadMessage.convs
        #expect(unread.map(\.cid) == [Self.group] && unread.first?.unread == 1 && unread.first?.data == "after the move")
        try await server.stop()

        try await TestDatabase.withStore(dataDirectory: folder) { (store) async throws in
            let conversation = try #require(try await store.conversation(id: Self.group))
            #expect(conversation.managers == ["bob"] && conversation.blocked == ["mallory"] && conversation.silenced == ["dave"])
            #expect(try await store.members(of: Self.system, after: nil, limit: 10).map(\.clientID) == ["bob"])
            #expect(try await store.installation(objectID: "i1")?.badge == 2)
            #expect(try await store.documents(in: "Blacklist", ids: ["b1"]).first?.fields["owner"] == "bob")
        }
    }

    /// The console's files: one class a file, as JSON lines, a JSON array or a query's answer.
    @Test func consoleFilesOfEachShapeComeAcrossAndBrokenRowsAreToldAndSkipped() async throws {
        let folder = TestServer.temporaryDirectory()
        let console = folder + "/console"
        try FileManager.default.createDirectory(atPath: console, withIntermediateDirectories: true)
        let created = ExportFolder.iso(Self.movedAt)
        let conversations: JSONValue = [
            ["objectId": "5f00000000000000000000c1", "c": "ann", "m": ["ann", "ben"], "createdAt": created, "updatedAt": created],
            ["objectId": "5f00000000000000000000c2", "c": "ann", "m": "ben", "createdAt": created],
            ["objectId": "5f00000000000000000000c3", "c": "ann", "m": ["ann"], "temp": true, "createdAt": created],
        ]
        try conversations.jsonString.write(toFile: console + "/_Conversation.json", atomically: true, encoding: .utf8)
        try """
            {"cid":"5f00000000000000000000c1","clientId":"ben","role":"Manager"}
            {"clientId":"ben","role":"Manager"}
            """.write(toFile: console + "/_ConversationMemberInfo.jsonl", atomically: true, encoding: .utf8)
        let installations: JSONValue = ["results": [
            ["objectId": "i1", "deviceType": "android", "installationId": "ben-phone", "channels": ["ben"], "createdAt": created],
            ["objectId": "i2", "deviceType": "web", "deviceToken": "x", "createdAt": created],
            ["objectId": "i3", "deviceType": "ios", "deviceToken": "y", "badge": "many", "createdAt": created],
        ]]
        try installations.jsonString.write(toFile: console + "/_Installation.json", atomically: true, encoding: .utf8)
        let config = try await Self.importConfig(for: folder)

        let result = try await Self.switchboard(["leancloud", "import", console, "-c", config])
        let lines = result.output
        for expected in [
            "_Conversation.json: item 2: skipped: m must be an array of strings",
            "_Conversation.json: item 3: skipped: a temporary conversation needs its ttl (seconds)",
            "_Conversation.json: _Conversation: 1 read, 1 stored, 0 already there, 2 unreadable",
            "_ConversationMemberInfo.jsonl:2: skipped: cid is missing",
            "_ConversationMemberInfo: 1 read, 1 stored, 0 already there, 1 unreadable",
            "_Installation.json: item 2: skipped: unknown deviceType web: pushes go to ios and android devices",
            "_Installation.json: item 3: skipped: badge must be a whole number",
            "_Installation.json: _Installation: 1 read, 1 stored, 0 already there, 2 unreadable",
        ] {
            #expect(lines.contains(expected), "\(expected)\nnot in\n\(lines)")
        }
        #expect(result.status != 0)
        try await TestDatabase.withStore(dataDirectory: folder) { (store) async throws in
            #expect(try await store.conversation(id: "5f00000000000000000000c1")?.managers == ["ben"])
            #expect(try await store.installation(objectID: "i1")?.installation.channels == ["ben"])
        }
    }

    /// Two exports of one app (a later run after things changed): of each object the newer
    /// version stays, whichever is imported first.
    @Test func ofTwoExportsTheNewerVersionOfEachObjectStays() async throws {
        let folder = TestServer.temporaryDirectory()
        let config = try await Self.importConfig(for: folder)
        let early = try ExportFolder(), late = try ExportFolder()
        func rows(name: String, owner: String, at time: Int64) -> [JSONValue] {
            let created = ExportFolder.iso(Self.movedAt), updated = ExportFolder.iso(time)
            return [
                ["objectId": .string(Self.group), "c": "alice", "m": ["alice"], "name": .string(name), "createdAt": created, "updatedAt": updated],
                ["objectId": "b1", "owner": .string(owner), "createdAt": created, "updatedAt": updated],
            ]
        }
        let first = rows(name: "First", owner: "bob", at: Self.movedAt), second = rows(name: "Second", owner: "carol", at: Self.movedAt + 1000)
        try early.append("classes/_Conversation.jsonl", rows: [first[0]])
        try early.append("classes/Blacklist.jsonl", rows: [first[1]])
        try late.append("classes/_Conversation.jsonl", rows: [second[0]])
        try late.append("classes/Blacklist.jsonl", rows: [second[1]])

        let newerLast = try await Self.switchboard(["leancloud", "import", early.path, late.path, "-c", config])
        #expect(newerLast.output.contains("Blacklist: 1 read, 1 stored (1 replacing an older version), 0 already there"), "\(newerLast.output)")
        let olderAgain = try await Self.switchboard(["leancloud", "import", early.path, "-c", config])
        #expect(olderAgain.output.contains("Blacklist: 1 read, 0 stored, 1 already there"), "\(olderAgain.output)")
        try await TestDatabase.withStore(dataDirectory: folder) { (store) async throws in
            #expect(try await store.conversation(id: Self.group)?.name == "Second")
            #expect(try await store.documents(in: "Blacklist", ids: ["b1"]).first?.fields["owner"] == "carol")
        }
    }

    /// An export whose run did not finish is read up to the lengths its manifest recorded:
    /// what a killed run wrote past them, a line cut short, is not read.
    @Test func anUnfinishedExportIsReadUpToWhatItsManifestRecorded() async throws {
        let folder = TestServer.temporaryDirectory()
        let export = try ExportFolder(finished: false)
        try export.append("classes/_Conversation.jsonl", rows: [ImportStoreTests.conversation(Self.group)])
        try export.append("messages/000001.jsonl", rows: [
            ["msg-id": "m1", "conv-id": .string(Self.group), "from": "alice", "timestamp": .int(Self.movedAt), "data": "recorded"],
        ])
        try export.recordLengths()
        try export.append("classes/_Conversation.jsonl", [.row(ImportStoreTests.conversation("5f00000000000000000000f2")), .raw(#"{"objectId":"5f0"#)])
        try export.append("messages/000001.jsonl", [.raw(#"{"msg-id":"m2","conv-id""#)])

        let result = try await Self.switchboard(["leancloud", "import", export.path + "/", "-c", try await Self.importConfig(for: folder)])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("its last export run did not finish; importing what it recorded"), "\(result.output)")
        #expect(result.output.contains("_Conversation: 1 read, 1 stored, 0 already there\n"), "\(result.output)")
        #expect(result.output.contains("messages: 1 read, 1 stored, 0 already there\n"), "\(result.output)")
    }

    /// An import killed (SIGKILL) while it stores messages, then run again, ends as one
    /// clean run: every message once, in order, read positions where a clean run puts them.
    @Test func anImportKilledMidwayAndRunAgainEndsAsOneCleanRun() async throws {
        let export = try ExportFolder()
        let conversations = 20, perConversation = 2500
        try export.append("classes/_Conversation.jsonl", rows: (0..<conversations).map { index in
            ImportStoreTests.conversation(String(format: "5f00000000000000000010%02d", index), ["m": ["alice", "bob", .string("c\(index)")]])
        })
        for file in 0..<5 {
            let rows: [JSONValue] = (0..<(conversations * perConversation / 5)).map { offset in
                let index = file * (conversations * perConversation / 5) + offset
                return ["msg-id": .string("msg\(index)"), "conv-id": .string(String(format: "5f00000000000000000010%02d", index % conversations)),
                        "from": index.isMultiple(of: 2) ? "alice" : "bob", "timestamp": .int(Self.movedAt + Int64(index / 3)), "data": .string("text \(index)")]
            }
            try export.append(String(format: "messages/%06d.jsonl", file + 1), rows: rows)
        }
        let total = conversations * perConversation
        let clean = TestServer.temporaryDirectory(), killed = TestServer.temporaryDirectory()
        let cleanRun = try await Self.switchboard(["leancloud", "import", export.path, "-c", try await Self.importConfig(for: clean)])
        #expect(cleanRun.status == 0, "\(cleanRun.output)")

        let config = try await Self.importConfig(for: killed)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.executable)
        process.arguments = ["leancloud", "import", export.path, "-c", config]
        process.standardOutput = FileHandle.nullDevice
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.yield(); ended.continuation.finish() }
        try process.run()
        var stored = 0
        var settings = ServerConfig()
        settings.dataDirectory = killed
        settings.postgresURL = try await TestDatabase.url(for: killed)
        while stored == 0, process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
            stored = (try? await TestDatabase.count("SELECT COUNT(*) FROM message WHERE sender != $1", "", in: settings)) ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        for await _ in ended.stream {}
        let storedWhenKilled = try await TestDatabase.count("SELECT COUNT(*) FROM message WHERE sender != $1", "", in: settings)
        try #require(storedWhenKilled > 0 && storedWhenKilled < total, "killed after \(storedWhenKilled) of \(total) messages: not midway")
        let rerun = try await Self.switchboard(["leancloud", "import", export.path, "-c", config])
        #expect(rerun.status == 0, "\(rerun.output)")
        #expect(rerun.output.contains("already there"), "\(rerun.output)")

        let ids = (0..<conversations).map { String(format: "5f00000000000000000010%02d", $0) }
        #expect(try await Self.contents(of: killed, conversations: ids) == Self.contents(of: clean, conversations: ids))
    }

    /// What an import leaves in a store, to compare two: the conversations, each one's
    /// history in order, and its members' read positions.
    private static func contents(of folder: String, conversations ids: [String]) async throws -> [String] {
        try await TestDatabase.withStore(dataDirectory: folder) { (store) async throws in
            var lines: [String] = []
            for conversation in try await store.conversations(ids: ids).sorted(by: { $0.id < $1.id }) {
                lines.append("\(conversation)")
                var start: HistoryQuery.Bound?
                while true {
                    let page = try await store.history(HistoryQuery(
                        scope: .conversation(conversation.id), limit: 1000, direction: .newer, start: start, end: nil, messageType: nil
                    ))
                    guard let last = page.last else { break }
                    lines += page.map { "\($0.id) \($0.timestamp) \($0.from) \($0.content)" }
                    start = HistoryQuery.Bound(timestamp: last.timestamp, messageID: last.id)
                }
                lines += try await store.receiptPositions(conversationID: conversation.id).sorted { $0.clientID < $1.clientID }.map { "\($0)" }
            }
            return lines
        }
    }
}

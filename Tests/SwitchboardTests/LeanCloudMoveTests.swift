import Foundation
import SwitchboardWire
import Testing

/// An app moves house: a Switchboard filled the way apps fill LeanCloud (through the SDK's
/// protocol and the REST API) is exported with `switchboard leancloud export`, imported into
/// a fresh one with `switchboard leancloud import`, and its clients find everything where
/// they left it: the same conversations by the same ids, the same history pages, nothing
/// unread from before the move, and the conversation going on.
@Suite(.disabled(if: TestDatabase.usesPostgres, "the second server's config names SQLite's folder"))
struct LeanCloudMoveTests {
    @Test func anAppExportedAndImportedLooksTheSameToItsClients() async throws {
        let old = try await TestServer.start()
        let app = try await MovingApp.fill(old)
        let before = try await AppSnapshot.take(old, app)

        let export = TestServer.temporaryDirectory() + "/export"
        let (exported, exportStatus) = try await ConfigAndCLITests.switchboard([
            "leancloud", "export", "--server", "http://127.0.0.1:\(old.port)", "--app-id", old.config.appID,
            "--master-key", old.config.masterKey, "--out", export, "--rate", "1000",
        ])
        #expect(exportStatus == 0, "\(exported)")
        try await old.stop()

        let folder = TestServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "storage: { dataDir: '\(folder)' }\n".write(toFile: folder + "/switchboard.yaml", atomically: true, encoding: .utf8)
        let (imported, importStatus) = try await ConfigAndCLITests.switchboard(["leancloud", "import", export, "-c", folder + "/switchboard.yaml"])
        #expect(importStatus == 0, "\(imported)")

        let new = try await TestServer.start(dataDirectory: folder)
        let after = try await AppSnapshot.take(new, app)
        for (what, value) in before.parts where after.parts[what] != value {
            Issue.record("\(what) differs:\nbefore \(value)\nafter  \(after.parts[what] ?? "nothing")")
        }
        #expect(before.parts.count == after.parts.count)

        // Nothing from before the move is unread, nor delivered again; what comes after is.
        let bob = try await new.login("bob", subprotocol: .protobuf3)
        // A login's catch-up is sent while the login is handled.
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .direct || ($0.cmd == .unread && !$0.unreadMessage.convs.isEmpty) }.isEmpty)
        bob.close()
        try await bob.waitUntilClosed()
        let alice = try await new.login("alice")
        let sent = try await alice.sendText("after the move", cid: app.group)
        let back = try await new.login("bob", subprotocol: .protobuf3)
        let unread = try await back.next { $0.cmd == .unread }.unreadMessage
        #expect(unread.convs.map(\.cid) == [app.group])
        #expect(unread.convs.first?.unread == 1 && unread.convs.first?.mid == sent.uid)
        // And the history goes on from where it was.
        let newest = try await back.request(.logs(cid: app.group, limit: 2)).logsMessage.logs
        #expect(newest.map(\.data) == [before.newestInGroup, "after the move"])
        try await new.stop()
    }
}

/// The ids of what `fill` made.
struct MovingApp {
    var group: String
    var pair: String
    var room: String
    var system: String
    var temporary: String
    var installations: [String]
    var object: String
    var conversations: [String] { [group, pair, room, system, temporary] }

    /// Conversations of every kind, roles, mutes, blocked and silenced members, subscribers,
    /// text, typed, binary and mention messages, an edit and a recall, installations, and
    /// an object of the app's own class.
    static func fill(_ server: TestServer) async throws -> MovingApp {
        let alice = try await server.login("alice")
        let group = try await alice.startConversation(members: ["bob", "carol", "dave"], name: "Tea")
        _ = try await alice.request(.update(cid: group, attributes: #"{"topic":"oolong","level":2}"#))
        let pair = try await alice.startConversation(members: ["bob"], unique: true)
        let room = try await alice.request(.startConversation(members: [], name: "Lobby", transient: true)).convMessage.cid
        let temporary = try await alice.request(.startConversation(members: ["bob"], temporary: true, ttl: 3600)).convMessage.cid
        let base = "/1.2/rtm/conversations/\(group)"
        #expect(try await server.rest("POST", base + "/member-infos", body: ["clientId": "bob", "role": "Manager"]).0 == 200)
        #expect(try await server.rest("POST", base + "/blacklists", body: ["client_ids": ["eve"]]).0 == 200)
        #expect(try await server.rest("POST", base + "/permanent-silenceds", body: ["client_ids": ["dave"]]).0 == 200)
        let carol = try await server.login("carol")
        #expect(try await carol.request(.conversation(.mute, cid: group)).cmd == .conv)
        let system = try #require(try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "News"]).1["objectId"] as? String)
        for subscriber in ["bob", "carol"] {
            #expect(try await server.rest("POST", "/1.2/rtm/service-conversations/\(system)/subscribers", body: ["client_id": subscriber]).0 == 200)
        }
        #expect(try await server.rest("POST", "/1.2/rtm/service-conversations/\(system)/broadcasts", body: ["from_client": "news", "message": "extra!"]).0 == 200)

        try await alice.sendText("hello", cid: group)
        _ = try await alice.request(.typedText(#"{"_lctype":-1,"_lctext":"typed"}"#, cid: group))
        var binary = GenericCommand.text("", cid: group)
        binary.directMessage.clearMsg()
        binary.directMessage.binaryMsg = Data([0, 1, 2, 255])
        _ = try await alice.request(binary)
        var mention = GenericCommand.text("@bob look", cid: group)
        mention.directMessage.mentionPids = ["bob"]
        _ = try await alice.request(mention)
        let edited = try await alice.sendText("tpyo", cid: group)
        _ = try await alice.request(.patch(cid: group, mid: edited.uid, timestamp: edited.t, text: "typo"))
        let recalled = try await alice.sendText("oops", cid: group)
        _ = try await alice.request(.patch(cid: group, mid: recalled.uid, timestamp: recalled.t, recall: true))
        #expect(try await server.rest("POST", base + "/messages", body: ["from_client": "carol", "message": "from the backend"]).0 == 200)
        try await alice.sendText("hi bob", cid: pair)
        try await alice.sendText("in the room", cid: room)
        try await alice.sendText("for a while", cid: temporary)
        // Read up to here by bob, so the old server shows nothing unread either.
        for client in ["bob", "carol", "dave"] {
            let member = try await server.login(client)
            for cid in [group, pair, temporary] {
                let newest = try await member.request(.logs(cid: cid, limit: 1)).logsMessage.logs.first?.timestamp ?? 0
                member.send(.read(cid: cid, upTo: newest))
            }
            _ = try await member.request(.echo)
        }

        var installations: [String] = []
        for body: [String: Any] in [
            ["deviceType": "ios", "deviceToken": String(repeating: "ab", count: 32), "channels": ["bob"], "badge": 3],
            ["deviceType": "android", "installationId": "bobs-android", "vendor": "fcm", "registrationId": "fcm-token", "channels": ["bob", "news"]],
        ] {
            installations.append(try #require(try await server.rest("POST", "/1.1/installations", body: body).1["objectId"] as? String))
        }
        let object = try #require(try await server.rest("POST", "/1.1/classes/Blacklist", body: ["owner": "alice", "blocked": "mallory"]).1["objectId"] as? String)
        return MovingApp(group: group, pair: pair, room: room, system: system, temporary: temporary, installations: installations, object: object)
    }
}

/// What clients and the app's backend see of an app, each part as canonical JSON text.
struct AppSnapshot {
    var parts: [String: String] = [:]
    var newestInGroup: String?

    static func take(_ server: TestServer, _ app: MovingApp) async throws -> AppSnapshot {
        var snapshot = AppSnapshot()
        func keep(_ what: String, _ path: String) async throws {
            let (status, data) = try await server.restData("GET", path)
            snapshot.parts[what] = "\(status) " + canonical(data)
        }
        try await keep("conversations", "/1.2/rtm/all-conversations?limit=1000&order=createdAt")
        let group = "/1.2/rtm/conversations/\(app.group)"
        try await keep("roles", group + "/member-infos")
        try await keep("blocked", group + "/blacklists")
        try await keep("silenced", group + "/permanent-silenceds")
        try await keep("subscribers", "/1.2/rtm/service-conversations/\(app.system)/subscribers")
        for cid in app.conversations {
            try await keep("history of \(cid)", "/1.2/rtm/conversations/\(cid)/messages?limit=1000")
        }
        for id in app.installations { try await keep("installation \(id)", "/1.1/installations/\(id)") }
        try await keep("object", "/1.1/classes/Blacklist/\(app.object)")

        // History as an SDK pages it, two at a time by mid and timestamp.
        let alice = try await server.login("alice")
        for cid in [app.group, app.pair, app.temporary] {
            var pages: [String] = []
            var query = GenericCommand.logs(cid: cid, limit: 2)
            while true {
                let logs = try await alice.request(query).logsMessage.logs
                guard let oldest = logs.first else { break }
                pages.append(logs.map { "\($0.msgID)@\($0.timestamp)=\($0.hasData ? $0.data : "") \($0.hasBin ? "bin" : "") \($0.patchTimestamp)" }.joined(separator: ", "))
                query.logsMessage.t = oldest.timestamp
                query.logsMessage.mid = oldest.msgID
            }
            snapshot.parts["pages of \(cid)"] = pages.joined(separator: "\n")
        }
        var temporary = GenericCommand.query(where: "{}")
        temporary.convMessage.tempConvIds = [app.temporary]
        snapshot.parts["temporary"] = try await alice.request(temporary).convMessage.results.data
        snapshot.newestInGroup = try await alice.request(.logs(cid: app.group, limit: 1)).logsMessage.logs.first?.data
        alice.close()
        return snapshot
    }

    private static func canonical(_ data: Data) -> String {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let text = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        else { return String(decoding: data, as: UTF8.self) }
        return String(decoding: text, as: UTF8.self)
    }
}

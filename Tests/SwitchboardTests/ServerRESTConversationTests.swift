import Foundation
import SwitchboardCore
import SwitchboardJSON
import SwitchboardWire
import Testing

/// Conversations, moderation and messages managed through the server REST API, over real
/// HTTP: clients on real WebSockets hear each change as if a member had made it.
@Suite struct ServerRESTConversationTests {
    @Test func conversationsCreatedAndChangedByRESTTellTheMembersAndRunTheHooks() async throws {
        let recorder = RecordingPlugin()
        let server = try await TestServer.start(plugins: [recorder])
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")

        let (status, created) = try await server.rest("POST", "/1.2/rtm/conversations", body: [
            "name": "team", "m": ["alice", "bob"], "c": "alice", "topic": "launch",
        ])
        #expect(status == 200)
        let cid = try #require(created["objectId"] as? String)
        #expect(created["c"] as? String == "alice" && created["topic"] as? String == "launch" && created["name"] as? String == "team")
        #expect(Set(created["m"] as? [String] ?? []) == ["alice", "bob"])
        let joined = try await bob.next("conv/joined") { $0.cmd == .conv && $0.op == .joined }
        #expect(joined.convMessage.cid == cid && joined.convMessage.initBy == "alice")
        #expect(try await recorder.params(of: .conversationStart)["initBy"] == "alice")

        let (updated, answer) = try await server.rest("PUT", "/1.2/rtm/conversations/\(cid)", body: ["name": "renamed", "attr.color": "red"])
        #expect(updated == 200 && answer["objectId"] as? String == cid && answer["updatedAt"] is String)
        let changed = try await bob.next("conv/updated") { $0.cmd == .conv && $0.op == .updated }
        #expect(changed.convMessage.initBy == MessagingCore.serverClientID)
        #expect(try await server.rest("PUT", "/1.2/rtm/conversations/\(cid)", body: ["m": ["eve"]]).0 == 400)

        #expect(try await server.rest("POST", "/1.2/rtm/conversations/\(cid)/members", body: ["client_ids": ["carol"]]).0 == 200)
        #expect(try await bob.next("conv/membersJoined") { $0.cmd == .conv && $0.op == .membersJoined }.convMessage.m == ["carol"])
        #expect(try await recorder.params(of: .conversationAdd)["members"] == ["carol"])
        #expect(try await server.rest("DELETE", "/1.2/rtm/conversations/\(cid)/members", body: ["client_ids": ["bob"]]).0 == 200)
        #expect(try await bob.next("conv/left") { $0.cmd == .conv && $0.op == .left }.convMessage.cid == cid)
        #expect(try await carol.next("carol conv/joined") { $0.cmd == .conv && $0.op == .joined }.convMessage.cid == cid)
        #expect(Set(try await server.rest("GET", "/1.2/rtm/conversations/\(cid)/members").1["result"] as? [String] ?? []) == ["alice", "carol"])

        #expect(try await server.rest("POST", "/1.2/rtm/conversations/\(cid)/mutes", body: ["client_ids": ["carol"]]).0 == 200)
        #expect(try await server.rest("GET", "/1.2/rtm/conversations/\(cid)/mutes").1["result"] as? [String] == ["carol"])
        #expect(try await server.rest("DELETE", "/1.2/rtm/conversations/\(cid)/mutes", body: ["client_ids": ["carol"]]).0 == 200)
        #expect(try await server.rest("GET", "/1.2/rtm/conversations/\(cid)/mutes").1["result"] as? [String] == [])

        _ = try await carol.sendText("before the end", cid: cid)
        #expect(try await server.rest("DELETE", "/1.2/rtm/conversations/\(cid)").0 == 200)
        #expect(try await server.rest("GET", "/1.2/rtm/conversations/\(cid)/members").0 == 404)
        #expect(try await server.restArray("/1.2/rtm/messages").2.isEmpty)
        #expect(try await carol.request(.text("after", cid: cid)).ackMessage.code != 0)
        try await server.stop()
    }

    /// The creator the REST API names did not start the conversation itself: it hears
    /// `joined` as the other members do.
    @Test func aConversationCreatedByRESTTellsItsCreatorToo() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let (status, created) = try await server.rest("POST", "/1.2/rtm/conversations", body: ["m": ["alice", "bob"], "c": "alice"])
        #expect(status == 200)
        let cid = try #require(created["objectId"] as? String)
        let joined = try await alice.next("alice conv/joined") { $0.cmd == .conv && $0.op == .joined }
        #expect(joined.convMessage.cid == cid && joined.convMessage.initBy == "alice")
        try await server.stop()
    }

    @Test func uniqueConversationsAndChatRoomsByREST() async throws {
        let server = try await TestServer.start()
        let first = try await server.rest("POST", "/1.2/rtm/conversations", body: ["m": ["alice", "bob"], "unique": true]).1["objectId"] as? String
        let again = try await server.rest("POST", "/1.2/rtm/conversations", body: ["m": ["bob", "alice"], "unique": true]).1["objectId"] as? String
        #expect(first != nil && first == again)

        let (status, room) = try await server.rest("POST", "/1.2/rtm/chatrooms", body: ["name": "lobby"])
        #expect(status == 200 && room["createdAt"] is String)
        let rid = try #require(room["objectId"] as? String)
        let bob = try await server.login("bob")
        _ = try await bob.request(.conversation(.add, cid: rid, members: ["bob"]))
        #expect(try await server.rest("GET", "/1.2/rtm/chatrooms/\(rid)/members/online-count").1["result"] as? Int == 1)
        #expect(try await server.rest("GET", "/1.2/rtm/chatrooms/\(rid)/members").1["result"] as? [String] == ["bob"])
        try await server.stop()
    }

    @Test func rolesSilencingAndBlacklistsByREST() async throws {
        let clock = TestClock()
        let server = try await TestServer.start(clock: clock)
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        let base = "/1.2/rtm/conversations/\(cid)"

        #expect(try await server.rest("POST", base + "/member-infos", body: ["clientId": "bob", "role": "Manager"]).0 == 200)
        #expect(try await bob.next("conv/memberInfoChanged") { $0.cmd == .conv && $0.op == .memberInfoChanged }.convMessage.info.role == "Manager")
        let rows = try await server.rest("GET", base + "/member-infos").1["results"] as? [[String: Any]] ?? []
        #expect(Set(rows.compactMap { "\($0["clientId"] ?? "")=\($0["role"] ?? "")" }) == ["alice=Owner", "bob=Manager"])
        let bobsRow = try #require(rows.first { $0["clientId"] as? String == "bob" }?["objectId"] as? String)
        #expect((try await server.rest("GET", base + "/member-infos?role=Manager").1["results"] as? [Any])?.count == 1)
        #expect(try await server.rest("DELETE", base + "/member-infos/\(bobsRow)").0 == 200)
        #expect((try await server.rest("GET", base + "/member-infos").1["results"] as? [Any])?.count == 1)

        #expect(try await server.rest("POST", base + "/permanent-silenceds", body: ["client_ids": ["carol"]]).0 == 200)
        #expect(try await carol.request(.text("hi", cid: cid)).ackMessage.code == 4563)
        #expect(try await server.rest("GET", base + "/permanent-silenceds").1["client_ids"] as? [String] == ["carol"])
        #expect(try await server.rest("DELETE", base + "/permanent-silenceds", body: ["client_ids": ["carol"]]).0 == 200)
        #expect(try await carol.request(.text("hi", cid: cid)).ackMessage.code == 0)
        #expect(try await server.rest("POST", base + "/temporary-silenceds", body: ["client_id": "carol", "ttl": 60]).0 == 200)
        #expect(try await carol.request(.text("hi", cid: cid)).ackMessage.code == 4563)
        #expect(try await server.rest("POST", base + "/temporary-silenceds", body: ["client_id": "carol", "ttl": 100_000]).0 == 400)
        #expect(try await server.rest("DELETE", base + "/temporary-silenceds?client_id=carol").0 == 200)
        #expect(try await carol.request(.text("hi", cid: cid)).ackMessage.code == 0)
        #expect(try await server.rest("POST", base + "/temporary-silenceds", body: ["client_id": "carol", "ttl": 1]).0 == 200)
        clock.advance(by: .milliseconds(999))
        #expect(try await carol.request(.text("hi", cid: cid)).ackMessage.code == 4563)
        clock.advance(by: .milliseconds(1))
        #expect(try await carol.request(.text("hi", cid: cid)).ackMessage.code == 0)

        // The server outranks the owner: it may block even her.
        #expect(try await server.rest("POST", base + "/blacklists", body: ["client_ids": ["carol", "alice"]]).0 == 200)
        #expect(try await carol.next("conv/left") { $0.cmd == .conv && $0.op == .left }.convMessage.cid == cid)
        let page = try await server.rest("GET", base + "/blacklists?limit=1").1
        #expect(page["client_ids"] as? [String] == ["carol"] && page["next"] as? String == "1")
        #expect(try await carol.request(.conversation(.add, cid: cid, members: ["carol"])).convMessage.failedPids.first?.code == 4548)
        #expect(try await server.rest("DELETE", base + "/blacklists", body: ["client_ids": ["carol", "alice"]]).0 == 200)
        #expect(try await server.rest("GET", base + "/blacklists").1["client_ids"] as? [String] == [])
        try await server.stop()
    }

    /// LeanCloud answers a role given with the member-info record's id, the one GET lists
    /// and DELETE takes; the creator owns a conversation for good.
    @Test func aRoleGivenByRESTAnswersItsRecordAndOwnershipStaysWithTheCreator() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        let base = "/1.2/rtm/conversations/\(cid)/member-infos"

        let (given, record) = try await server.rest("POST", base, body: ["clientId": "bob", "role": "Manager"])
        #expect(given == 200 && record["updatedAt"] is String)
        let rows = try await server.rest("GET", base).1["results"] as? [[String: Any]] ?? []
        let row = { (client: String) in rows.first { $0["clientId"] as? String == client }?["objectId"] as? String }
        #expect(record["objectId"] as? String == row("bob"))
        let (changed, again) = try await server.rest("PUT", base + "/\(row("bob") ?? "")", body: ["role": "Member"])
        #expect(changed == 200 && again["objectId"] as? String == row("bob"))

        // Owner, as LeanCloud lists it among the roles, for the owner herself: nothing changes.
        let (kept, owners) = try await server.rest("POST", base, body: ["clientId": "alice", "role": "Owner"])
        #expect(kept == 200 && owners["objectId"] as? String == row("alice"))
        // The owner cannot be changed (LeanCloud's senior guide): not handed to another.
        let (moved, why) = try await server.rest("POST", base, body: ["clientId": "carol", "role": "Owner"])
        #expect(moved == 400 && why["code"] as? Int == 4320)
        let roles = try await server.rest("GET", base).1["results"] as? [[String: Any]] ?? []
        #expect(roles.compactMap { "\($0["clientId"] ?? "")=\($0["role"] ?? "")" } == ["alice=Owner"])
        try await server.stop()
    }

    @Test func messagesEditedRecalledAndDeletedByREST() async throws {
        let recorder = RecordingPlugin()
        let server = try await TestServer.start(plugins: [recorder])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("original", cid: cid)
        let path = "/1.2/rtm/conversations/\(cid)/messages/\(sent.uid)"

        #expect(try await server.rest("PUT", path, body: ["from_client": "alice", "message": "edited", "timestamp": sent.t]).0 == 200)
        let edit = try await bob.next("patch/modify") { $0.cmd == .patch && $0.op == .modify }
        #expect(edit.patchMessage.patches.first?.data == "edited" && edit.patchMessage.patches.first?.recall == false)
        #expect(try await recorder.params(of: .messageUpdate)["content"] == "edited")
        // The sender's own devices hear it too: the server is none of them.
        #expect(try await alice.next("patch/modify") { $0.cmd == .patch && $0.op == .modify }.patchMessage.patches.first?.data == "edited")
        #expect(try await server.rest("PUT", path, body: ["from_client": "alice", "message": "x", "timestamp": sent.t + 1]).0 == 404)
        #expect(try await server.rest("PUT", path, body: ["from_client": "bob", "message": "x", "timestamp": sent.t]).0 == 400)

        #expect(try await server.rest("PUT", path + "/recall", body: ["from_client": "alice", "timestamp": sent.t]).0 == 200)
        #expect(try await bob.next("patch/modify") { $0.cmd == .patch && $0.op == .modify }.patchMessage.patches.first?.recall == true)

        #expect(try await server.rest("DELETE", path + "?from_client=alice&timestamp=\(sent.t)").0 == 200)
        #expect(try await server.restArray("/1.2/rtm/conversations/\(cid)/messages").2.isEmpty)
        #expect(try await server.rest("DELETE", path + "?from_client=alice&timestamp=\(sent.t)").0 == 404)
        try await server.stop()
    }

    @Test func historyOfAClientAndOfTheWholeApp() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let first = try await alice.startConversation(members: ["bob"])
        let room = try await alice.request(.startConversation(members: [], name: "room", transient: true)).convMessage.cid
        _ = try await alice.sendText("one", cid: first)
        _ = try await bob.sendText("two", cid: first)
        _ = try await alice.sendText("three", cid: room)

        let (status, _, alices) = try await server.restArray("/1.2/rtm/clients/alice/messages")
        #expect(status == 200 && alices.map { $0["data"] as? String } == ["three", "one"])
        #expect(alices.first?["is-room"] as? Bool == true && alices.last?["conv-id"] as? String == first)
        #expect(try await server.restArray("/1.2/rtm/messages").2.map { $0["data"] as? String } == ["three", "two", "one"])
        #expect(try await server.restArray("/1.2/rtm/messages?reversed=true&limit=2").2.map { $0["data"] as? String } == ["one", "two"])
        try await server.stop()
    }

    /// `/openapi.json` lists exactly what the server answers: every operation in it is
    /// routed (not the 404 or 405 of a request no route takes, whose `code` is the HTTP
    /// status), and every body it closes refuses a field it does not name.
    @Test func theOpenAPIDocumentDescribesTheRoutes() async throws {
        let server = try await TestServer.start()
        let (status, data) = try await server.restData("GET", "/openapi.json", key: nil)
        #expect(status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(paths.values.reduce(0) { $0 + $1.count } > 60)
        for (template, operations) in paths {
            let path = template.replacingOccurrences(of: #"\{[a-z_]+\}"#, with: "x", options: .regularExpression)
            for (method, operation) in operations {
                let closed = ((operation as? [String: Any])?["requestBody"] as? [String: Any]).map { body in
                    (((body["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any])?["additionalProperties"] as? Bool == false
                } ?? true
                // A GET carries no body.
                let isGet = method == "get"
                let (answered, body) = try await server.restData(method.uppercased(), path, body: isGet ? nil : ["zz_not_a_field": 1])
                let json = try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)
                let unrouted = [404, 405].contains((json as? [String: Any])?["code"] as? Int)
                #expect(json != nil && !unrouted, "\(method) \(template) is not routed (\(answered))")
                if closed, !isGet {
                    #expect(answered == 400 && (json as? [String: Any])?["code"] as? Int == 107, "\(method) \(template) took an unknown field")
                }
            }
        }
        #expect(try await server.restData("GET", "/1.2/rtm/not-a-route").0 == 404)
        try await server.stop()
    }
}

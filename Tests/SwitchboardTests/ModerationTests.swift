import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwitchboardWire
import Testing

/// Member roles, silencing and the blacklist, as the SDKs' `updateMemberRole`,
/// `muteMembers` and `blockMembers` use them. Roles and silencing on the core alone; the
/// blacklist kept across a restart, the REST API's reads and the router on a whole server.
@Suite struct ModerationTests {
    @Test func onlyTheOwnerNamesManagersAndEveryMemberHears() async throws {
        let server = try await CoreHarness.start()
        let owner = try await server.login("owner")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let cid = try await owner.startConversation(members: ["bob", "carol"])

        let selfPromotion = try await bob.request(.memberRole("bob", role: "Manager", cid: cid))
        #expect(selfPromotion.errorMessage.code == 4320)
        #expect(selfPromotion.errorMessage.reason == "CONVERSATION_OPERATION_UNAUTHORIZED")
        #expect(try await owner.request(.memberRole("bob", role: "Owner", cid: cid)).errorMessage.code == 4301)
        #expect(try await owner.request(.memberRole("owner", role: "Member", cid: cid)).errorMessage.code == 4320)

        let reply = try await owner.request(.memberRole("bob", role: "Manager", cid: cid))
        #expect(reply.op == .memberInfoUpdated)
        for client in [bob, carol] {
            let notice = try await client.next { $0.cmd == .conv && $0.op == .memberInfoChanged }
            #expect(notice.convMessage.info.pid == "bob" && notice.convMessage.info.role == "Manager")
            #expect(notice.convMessage.initBy == "owner")
        }
        // A manager does not name managers either.
        #expect(try await bob.request(.memberRole("carol", role: "Manager", cid: cid)).errorMessage.code == 4320)
        await server.stop()
    }

    @Test func theOwnerStaysWhileItHasManagers() async throws {
        let server = try await CoreHarness.start()
        let owner = try await server.login("owner")
        let cid = try await owner.startConversation(members: ["bob", "carol"])
        _ = try await owner.request(.memberRole("bob", role: "Manager", cid: cid))

        let removal = try await owner.request(.conversation(.remove, cid: cid, members: ["owner", "carol"]))
        #expect(removal.op == .removed)
        #expect(removal.convMessage.allowedPids == ["carol"])
        #expect(removal.convMessage.failedPids.map(\.code) == [4324])
        #expect(removal.convMessage.failedPids.first?.reason == "CONVERSATION_NEED_OWNER")
        #expect(removal.convMessage.failedPids.first?.pids == ["owner"])
        // A manager cannot remove the owner; the owner can remove a manager.
        let bob = try await server.login("bob")
        #expect(try await bob.request(.conversation(.remove, cid: cid, members: ["owner"])).convMessage.failedPids.map(\.code) == [4320])
        #expect(try await owner.request(.conversation(.remove, cid: cid, members: ["bob"])).convMessage.allowedPids == ["bob"])
        // Without managers the creator may leave, as in the SDK suite's join/quit.
        let left = try await owner.request(.conversation(.remove, cid: cid, members: ["owner"]))
        #expect(left.convMessage.allowedPids == ["owner"] && left.convMessage.failedPids.isEmpty)
        await server.stop()
    }

    @Test func silencedMembersCannotSendUntilUnsilenced() async throws {
        let server = try await CoreHarness.start()
        let owner = try await server.login("owner")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let cid = try await owner.startConversation(members: ["bob", "carol"])
        _ = try await owner.request(.memberRole("bob", role: "Manager", cid: cid))

        #expect(try await carol.request(.conversation(.addShutup, cid: cid, members: ["bob"])).errorMessage.code == 4320)
        let added = try await owner.request(.conversation(.addShutup, cid: cid, members: ["bob"]))
        #expect(added.op == .shutupAdded && added.convMessage.allowedPids == ["bob"])
        let own = try await bob.next { $0.cmd == .conv && $0.op == .shutuped }
        #expect(own.convMessage.initBy == "owner")
        for client in [owner, bob, carol] {
            let notice = try await client.next { $0.cmd == .conv && $0.op == .membersShutuped }
            #expect(notice.convMessage.m == ["bob"])
        }
        let refused = try await bob.request(.text("hi", cid: cid))
        #expect(refused.cmd == .ack && refused.ackMessage.code == 4563)
        let listed = try await carol.request(.conversation(.queryShutup, cid: cid))
        #expect(listed.op == .shutupResult && listed.convMessage.m == ["bob"])
        // A silenced manager cannot lift its own silence: it moderates only those below it.
        #expect(try await bob.request(.conversation(.removeShutup, cid: cid, members: ["bob"])).errorMessage.code == 4320)

        #expect(try await owner.request(.conversation(.removeShutup, cid: cid, members: ["bob"])).op == .shutupRemoved)
        _ = try await bob.next { $0.cmd == .conv && $0.op == .unshutuped }
        #expect(try await bob.request(.text("hi", cid: cid)).ackMessage.code == 0)
        await server.stop()
    }

    @Test func blockedMembersLeaveAndCannotComeBack() async throws {
        let dataDirectory = TestServer.temporaryDirectory()
        var server = try await TestServer.start(dataDirectory: dataDirectory)
        let owner = try await server.login("owner")
        let bob = try await server.login("bob")
        let cid = try await owner.startConversation(members: ["bob", "carol"])

        let blocked = try await owner.request(.blacklist(.block, cid: cid, clients: ["bob", "dave"]))
        #expect(blocked.cmd == .blacklist && blocked.op == .blocked)
        #expect(blocked.blacklistMessage.allowedPids == ["bob", "dave"])
        _ = try await bob.next { $0.cmd == .conv && $0.op == .blocked }
        _ = try await bob.next { $0.cmd == .conv && $0.op == .left }
        let others = try await owner.next { $0.cmd == .conv && $0.op == .membersBlocked }
        #expect(others.convMessage.m == ["bob", "dave"] && others.convMessage.initBy == "owner")
        _ = try await owner.next { $0.cmd == .conv && $0.op == .membersLeft }

        // Kept across a restart.
        try await server.stop()
        server = try await TestServer.start(dataDirectory: dataDirectory)
        let owner2 = try await server.login("owner")
        let bob2 = try await server.login("bob")
        let join = try await bob2.request(.conversation(.add, cid: cid, members: ["bob"]))
        #expect(join.convMessage.allowedPids.isEmpty)
        #expect(join.convMessage.failedPids.map(\.code) == [4548] && join.convMessage.failedPids.first?.pids == ["bob"])
        let invite = try await owner2.request(.conversation(.add, cid: cid, members: ["dave", "erin"]))
        #expect(invite.convMessage.allowedPids == ["erin"] && invite.convMessage.failedPids.first?.pids == ["dave"])
        let listed = try await owner2.request(.blacklist(.query, cid: cid, limit: 1))
        #expect(listed.op == .queryResult && listed.blacklistMessage.blockedPids == ["bob"])
        let rest = try await owner2.request(.blacklist(.query, cid: cid, next: listed.blacklistMessage.next))
        #expect(rest.blacklistMessage.blockedPids == ["dave"] && !rest.blacklistMessage.hasNext)
        #expect(try await bob2.request(.blacklist(.unblock, cid: cid, clients: ["bob"])).errorMessage.code == 4317)

        #expect(try await owner2.request(.blacklist(.unblock, cid: cid, clients: ["bob"])).op == .unblocked)
        #expect(try await bob2.request(.conversation(.add, cid: cid, members: ["bob"])).convMessage.allowedPids == ["bob"])
        try await server.stop()
    }

    /// The SDK's `getAllMemberInfo` reads roles from `_ConversationMemberInfo` over REST,
    /// with the session token its login gave.
    @Test func memberRolesAreReadOverREST() async throws {
        let server = try await TestServer.start()
        let owner = try await server.connect()
        let opened = try await owner.request(.open("owner", appID: server.config.appID))
        let cid = try await owner.startConversation(members: ["bob", "carol"])
        _ = try await owner.request(.memberRole("bob", role: "Manager", cid: cid))

        func get(_ clientID: String, token: String, key: String = server.config.appKey) async throws -> (Int, [String: Any]) {
            var components = URLComponents(string: "http://127.0.0.1:\(server.port)/1.1/classes/_ConversationMemberInfo")!
            components.queryItems = [.init(name: "where", value: #"{"cid":"\#(cid)"}"#), .init(name: "client_id", value: clientID)]
            var request = URLRequest(url: components.url!)
            request.setValue(server.config.appID, forHTTPHeaderField: "X-LC-Id")
            request.setValue(key, forHTTPHeaderField: "X-LC-Key")
            request.setValue(token, forHTTPHeaderField: "X-LC-IM-Session-Token")
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:])
        }
        let (status, body) = try await get("owner", token: opened.sessionMessage.st)
        #expect(status == 200)
        let rows = try #require(body["results"] as? [[String: Any]])
        let roles = Dictionary(uniqueKeysWithValues: rows.map { ($0["clientId"] as? String ?? "", $0["role"] as? String ?? "") })
        #expect(roles == ["owner": "Owner", "bob": "Manager"])
        #expect(rows.allSatisfy { $0["cid"] as? String == cid && ($0["objectId"] as? String)?.count == 24 })

        #expect(try await get("bob", token: opened.sessionMessage.st).0 == 401)
        #expect(try await get("owner", token: opened.sessionMessage.st, key: "wrong").0 == 401)
        try await server.stop()
    }

    /// An SDK given only the API address asks `/v1/route` where the WebSocket server is.
    @Test func theRouterNamesTheWebSocketServer() async throws {
        let server = try await TestServer.start()
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/route?appId=\(server.config.appID)&secure=1")!
        let (data, _) = try await URLSession.shared.data(from: url)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(body["server"] as? String == "ws://127.0.0.1:\(server.port)")
        #expect(body["ttl"] as? Int == 3600)
        let (_, other) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/v1/route?appId=someone-else")!)
        #expect((other as? HTTPURLResponse)?.statusCode == 404)
        try await server.stop()
    }
}

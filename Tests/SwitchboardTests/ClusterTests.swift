import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwitchboardCore
import SwitchboardServer
import SwitchboardWire
import Testing

/// Two server processes on one PostgreSQL database, as two nodes behind a load balancer:
/// clients on either reach each other.
@Suite(.enabled(if: TestDatabase.usesPostgres, "needs PostgreSQL"))
struct ClusterTests {
    /// Two nodes of one app, each with its own data folder (push log, hooks).
    struct Nodes {
        let a: ServerProcess
        let b: ServerProcess

        /// A node silent for three heartbeats is gone. Two seconds: under a loaded test run,
        /// one beat in a second was sometimes late enough for the other node to take it for
        /// gone.
        static let heartbeatSeconds = 2

        /// - Parameter scripts: hook scripts both nodes load, by file name.
        static func start(extraConfig: String = "", scripts: [String: String] = [:]) async throws -> Nodes {
            let folderA = TestServer.temporaryDirectory()
            let folderB = TestServer.temporaryDirectory()
            for folder in [folderA, folderB] {
                try FileManager.default.createDirectory(atPath: folder + "/hooks", withIntermediateDirectories: true)
                for (name, source) in scripts { try source.write(toFile: folder + "/hooks/" + name, atomically: true, encoding: .utf8) }
            }
            let a = try await ServerProcess.start(dataDirectory: folderA, heartbeatSeconds: heartbeatSeconds, extraConfig: extraConfig)
            let b = try await ServerProcess.start(
                dataDirectory: folderB, sharingDatabaseOf: folderA, heartbeatSeconds: heartbeatSeconds,
                extraConfig: extraConfig
            )
            return Nodes(a: a, b: b)
        }

        func stop() {
            a.stopIfRunning()
            b.stopIfRunning()
        }
    }

    @Test func clientsOnTwoNodesChat() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let (alice, bob, cid) = try await Self.aliceAndBob(on: nodes)
        let joined = try await bob.next(timeout: .seconds(5), "bob's conv/joined") { $0.cmd == .conv && $0.op == .joined }
        #expect(joined.peerID == "bob" && joined.convMessage.cid == cid)

        try await alice.sendText("hello from a", cid: cid)
        let received = try await bob.nextMessage()
        #expect(received.msg == "hello from a" && received.fromPeerID == "alice")
        try await bob.sendText("hello from b", cid: cid)
        #expect(try await alice.nextMessage().msg == "hello from b")

        // Each node knows who is online on the other.
        #expect(try await alice.isOnline("bob"))
        #expect(try await bob.isOnline("alice"))
        bob.close()
        try await alice.waitUntilOffline("bob")

        // Each names itself in its metrics, and counts what crossed.
        for node in [nodes.a, nodes.b] {
            #expect(try await node.metric("switchboard_cluster_relays_published_total") > 0)
            #expect(try await node.metric("switchboard_cluster_relays_received_total") > 0)
            #expect(try await node.metrics().contains(#"switchboard_cluster_node{node=""#))
        }
    }

    /// One client logged in on both nodes: each device gets what is sent to it, and what it
    /// sends itself shows on the other.
    @Test func oneClientsDevicesOnTwoNodesEachGetItsMessages() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let phone = try await TestClient.login("alice", port: nodes.a.port)
        let laptop = try await TestClient.login("alice", port: nodes.b.port)
        let bob = try await TestClient.login("bob", port: nodes.a.port)
        let cid = try await bob.startConversation(members: ["alice"])

        try await bob.sendText("to both", cid: cid)
        #expect(try await phone.nextMessage().msg == "to both")
        #expect(try await laptop.nextMessage().msg == "to both")

        try await phone.sendText("from the phone", cid: cid)
        #expect(try await laptop.nextMessage().msg == "from the phone")
        #expect(try await bob.nextMessage().msg == "from the phone")
    }

    /// A login with a tag displaces the session with that tag on the other node (4111).
    @Test func aTagTakenOnOneNodeEndsItsSessionOnTheOther() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let first = try await TestClient.login("alice", port: nodes.a.port, tag: "mobile")
        let second = try await TestClient.login("alice", port: nodes.b.port, tag: "mobile")
        // Logged in to the end: its session holds the tag.
        defer { second.close() }
        let closed = try await first.next(timeout: .seconds(5), "session/closed") { $0.cmd == .session && $0.op == .closed }
        #expect(closed.sessionMessage.code == 4111)

        // The displaced device reconnecting on its own does not take the tag back.
        let again = try await TestClient.connect(port: nodes.a.port)
        var reconnect = GenericCommand.open("alice", appID: "switchboard-dev", tag: "mobile")
        reconnect.sessionMessage.r = true
        let refused = try await again.request(reconnect)
        #expect(refused.op == .closed && refused.sessionMessage.code == 4111)
    }

    /// Two devices logging in with one tag at the same moment, one on each node: one keeps
    /// the tag, not neither. Each node hears of the other's login around its own; the one
    /// that logged in first is refused (4111) or closed right after it opened.
    @Test func sameTagLoginsAtOnceOnTwoNodesLeaveOneSession() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let barrier = try await RelayBarrier(between: nodes.a, and: nodes.b)
        for round in 0..<5 {
            let clientID = "twin\(round)"
            let devices = [try await TestClient.connect(port: nodes.a.port), try await TestClient.connect(port: nodes.b.port)]
            defer { devices.forEach { $0.close() } }
            async let onA = devices[0].request(.open(clientID, appID: "switchboard-dev", tag: "mobile"))
            async let onB = devices[1].request(.open(clientID, appID: "switchboard-dev", tag: "mobile"))
            let replies = try await [onA, onB]
            // Each node has carried out the other's news of its login: a session it closed for
            // that has been told.
            try await barrier.pass()
            var closed = 0
            for (device, reply) in zip(devices, replies) {
                if reply.op == .closed {
                    #expect(reply.sessionMessage.code == 4111)
                    closed += 1
                } else {
                    try await device.awaitHandled()
                    closed += device.received { $0.cmd == .session && $0.op == .closed }.count
                }
            }
            #expect(closed == 1, "round \(round): \(closed) of the two sessions closed")
        }
    }

    /// A node killed with SIGKILL: its clients log in on the other, and every message it
    /// acknowledged is there.
    @Test func aKilledNodesClientsFindEverythingOnTheOther() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let alice = try await TestClient.login("alice", port: nodes.a.port)
        let cid = try await alice.startConversation(members: ["bob"])
        var sent: [String] = []
        for index in 0..<15 {
            let ack = try await alice.sendText("message \(index)", cid: cid)
            sent.append(ack.uid)
        }
        nodes.a.kill()

        let bob = try await TestClient.login("bob", port: nodes.b.port)
        var received: [String] = []
        while received.count < sent.count {
            let message = try await bob.nextMessage()
            received.append(message.id)
            bob.send(.ack(ids: [message.id]))
        }
        #expect(received == sent)

        let aliceAgain = try await TestClient.login("alice", port: nodes.b.port)
        try await aliceAgain.sendText("still here", cid: cid)
        #expect(try await bob.nextMessage().msg == "still here")
    }

    /// The will message of a client whose node dies is sent by the other node, once the
    /// dead node misses its heartbeats; its sessions count as gone then too.
    @Test func aKilledNodesWillMessagesAreSentByTheOther() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let (alice, bob) = try await Self.aliceWithAWill("alice's node died", on: nodes)
        // Her connection must not close before her node goes.
        defer { alice.close() }
        #expect(try await bob.isOnline("alice"))

        nodes.a.kill()
        let sent = try await bob.nextMessage(timeout: .seconds(Int64(Nodes.heartbeatSeconds * 5 + 5)))
        #expect(sent.msg == "alice's node died" && sent.fromPeerID == "alice")
        #expect(try await !bob.isOnline("alice"))
    }

    /// A node shut down with SIGTERM closes its clients' connections; their wills reach the
    /// other node before it goes.
    @Test func aNodeShutDownGracefullyRelaysItsClientsWills() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let (alice, bob) = try await Self.aliceWithAWill("alice's node stopped", on: nodes)
        // Her connection must not close before her node goes.
        defer { alice.close() }
        _ = try await nodes.a.terminate()
        #expect(try await bob.nextMessage().msg == "alice's node stopped")
    }

    /// A client the app kicked leaves no will behind for the other nodes to send. Beside
    /// her on her node, carol, not kicked, leaves one: it shows when the other node sends the
    /// dead node's wills.
    @Test func aKickedClientsWillIsNotSentWhenItsNodeDies() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let (alice, bob) = try await Self.aliceWithAWill("should not arrive", on: nodes)
        let carol = try await TestClient.login("carol", port: nodes.a.port)
        // Her connection must not close before her node goes.
        defer { carol.close() }
        try await Self.leaveWill("carol's node died", by: carol, in: try await carol.startConversation(members: ["bob"]))
        _ = try await Self.rest(nodes.b, "/1.2/rtm/clients/alice/kick", [:])
        _ = try await alice.next(timeout: .seconds(5), "session/closed") { $0.cmd == .session && $0.op == .closed }

        nodes.a.kill()
        let expired = Duration.seconds(Int64(Nodes.heartbeatSeconds * 5 + 5))
        _ = try await bob.next(timeout: expired, "carol's will") { $0.cmd == .direct && $0.directMessage.msg == "carol's node died" }
        // A heartbeat takes all of a dead node's wills at once and sends them one after the
        // other (`PostgresNodeLink.claimOrphanedWills`): alice's, had it been kept, would be
        // queued for bob with carol's, ahead of anything he asks after.
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)
    }
}

extension ClusterTests {
    /// A member online on the other node is not pushed to; once offline everywhere, it is.
    @Test func pushIsForMembersOfflineOnEveryNode() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let (alice, bob, cid) = try await Self.aliceAndBob(on: nodes)
        try await alice.sendText("bob is online on b", cid: cid)
        // Node a decides whom to push to after its ack, while it still handles the send: once
        // it has handled a later command of alice's, it has, and bob may go.
        try await alice.awaitHandled()
        _ = try await bob.nextMessage()
        bob.close()
        try await alice.waitUntilOffline("bob")
        let gone = try await alice.sendText("bob is gone", cid: cid)

        let pushes = try await PushLog.lines(nodes.a.dataDirectory + "/push.log", count: 1)
        #expect(pushes.map { $0["msgId"]?.stringValue } == [gone.uid])
    }
}

extension ClusterTests {
    /// Clients joining one conversation at once through both nodes all end up members: a
    /// change on one node waits for the other's.
    @Test func joinsThroughBothNodesAtOnceAreAllKept() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let alice = try await TestClient.login("alice", port: nodes.a.port)
        let cid = try await alice.startConversation(members: [], name: "busy")
        var joiners: [(String, TestClient)] = []
        for index in 0..<16 {
            let name = "joiner\(index)"
            joiners.append((name, try await TestClient.login(name, port: index % 2 == 0 ? nodes.a.port : nodes.b.port)))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, client) in joiners {
                group.addTask {
                    let reply = try await client.request(.conversation(.add, cid: cid, members: [name]))
                    #expect(reply.op == .added)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await alice.request(.conversation(.count, cid: cid)).convMessage.count == 17)
    }
}

extension ClusterTests {
    /// A notice too long for a PostgreSQL notification (8,000 bytes) still reaches the
    /// other node.
    @Test func aNoticeTooLongToNotifyReachesTheOtherNode() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let (alice, bob, cid) = try await Self.aliceAndBob(on: nodes)
        let long = String(repeating: "a long topic ", count: 2_000)
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"attr.topic":"\#(long)"}"#)).op == .updated)
        let notice = try await bob.next(timeout: .seconds(5), "conv/updated") { $0.cmd == .conv && $0.op == .updated }
        #expect(notice.convMessage.attr.data.contains(long))
    }
}

extension ClusterTests {
    /// The app's backend may call any node: who is online and kicks cover every node.
    @Test func theRESTAPIOfOneNodeSeesAndKicksClientsOfTheOther() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let alice = try await TestClient.login("alice", port: nodes.b.port)

        let (_, online) = try await Self.rest(nodes.a, "/1.2/rtm/clients/check-online", ["client_ids": ["alice", "bob"]])
        #expect(online["results"] as? [String] == ["alice"])

        _ = try await Self.rest(nodes.a, "/1.2/rtm/clients/alice/kick", ["reason": "maintenance"])
        let closed = try await alice.next(timeout: .seconds(5), "session/closed") { $0.cmd == .session && $0.op == .closed }
        #expect(closed.sessionMessage.code == 4115 && closed.sessionMessage.reason == "maintenance")
        // Node b ends the session a moment after it told the client.
        #expect(try await Self.online("alice", accordingTo: nodes.a, untilOfflineWithin: .seconds(10)) == [])
    }

    /// A login signature is good once on all nodes: replayed on the other node, it is refused.
    @Test func aSignatureUsedOnOneNodeIsRefusedOnTheOther() async throws {
        let nodes = try await Nodes.start(extraConfig: "app: { signatures: true }")
        defer { nodes.stop() }
        let config = ServerConfig()
        let now = Int64(Date().timeIntervalSince1970)
        let nonce = "once-\(UUID().uuidString)"
        let signer = Signature(appID: config.appID, masterKey: config.masterKey)
        let signature = (t: now, n: nonce, s: signer.login(clientID: "alice", timestamp: now, nonce: nonce))
        let first = try await TestClient.connect(port: nodes.a.port).request(.open("alice", appID: config.appID, signature: signature))
        #expect(first.op == .opened)
        let replayed = try await TestClient.connect(port: nodes.b.port).request(.open("alice", appID: config.appID, signature: signature))
        #expect(replayed.op == .closed && replayed.sessionMessage.code == 4102)
    }

    /// A session row that outlived its session (its delete raced its insert) goes with the
    /// heartbeats after: the client stops counting as online.
    @Test func aSessionRowLeftBehindIsClearedByTheHeartbeats() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let metrics = try await nodes.a.metrics()
        let named = try #require(metrics.split(separator: "\n").first { $0.hasPrefix("switchboard_cluster_node{") })
        let nodeA = try #require(named.split(separator: "\"").dropFirst().first)
        try await TestDatabase.run(
            "INSERT INTO client_session (node, client_id, connection_id) VALUES ('\(nodeA)', 'ghost', 999999)", onDatabaseOf: nodes.a.dataDirectory
        )
        #expect(try await Self.online("ghost", accordingTo: nodes.b) == ["ghost"])
        let within = Duration.seconds(Int64(Nodes.heartbeatSeconds * 5))
        #expect(try await Self.online("ghost", accordingTo: nodes.b, untilOfflineWithin: within) == [])
    }

    /// The database drops the connections the nodes listen on: they connect again, and
    /// messages cross again.
    @Test func nodesListenAgainAfterTheDatabaseDropsTheirConnections() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let (alice, bob, cid) = try await Self.aliceAndBob(on: nodes)
        // Only this test's database: tests running beside it have listeners too.
        try await TestDatabase.run(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database() AND pid <> pg_backend_pid()",
            onDatabaseOf: nodes.a.dataDirectory
        )
        // Each says when it listens again; what is sent to it after crosses.
        try await nodes.b.waitUntilLogged("listening to the other nodes again")
        try await alice.sendText("after the break", cid: cid)
        #expect(try await bob.nextMessage(timeout: .seconds(10)).msg == "after the break")
        try await nodes.a.waitUntilLogged("listening to the other nodes again")
        try await bob.sendText("and back", cid: cid)
        #expect(try await alice.nextMessage(timeout: .seconds(10)).msg == "and back")
    }

    /// Whether `node` counts `clientID` online, as the REST API's check-online answers (the
    /// id, or none). With `limit`, asks again until the answer is none or `limit` has passed,
    /// and gives the last answer.
    static func online(_ clientID: String, accordingTo node: ServerProcess, untilOfflineWithin limit: Duration = .zero) async throws -> [String]? {
        let deadline = ContinuousClock.now + limit
        while true {
            let answer = try await rest(node, "/1.2/rtm/clients/check-online", ["client_ids": [clientID]]).1["results"] as? [String]
            guard answer != [], ContinuousClock.now < deadline else { return answer }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// alice on node a and bob on node b, in a conversation alice started.
    /// An Android phone's push channel on one node gets the push decided on the other: a
    /// relay carries it (`LongConnectionPush`).
    @Test func aPushOverTheSDKsOwnConnectionReachesAPhoneOnTheOtherNode() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let installation = "3b5d7f9a1c3e5a7c9e1b3d5f7a9c1e3b"
        var save = URLRequest(url: URL(string: "http://127.0.0.1:\(nodes.a.port)/1.1/installations")!)
        save.httpMethod = "POST"
        save.setValue("switchboard-dev", forHTTPHeaderField: "X-LC-Id")
        save.setValue("switchboard-dev-key", forHTTPHeaderField: "X-LC-Key")
        save.setValue("application/json", forHTTPHeaderField: "Content-Type")
        save.httpBody = try JSONSerialization.data(withJSONObject: ["deviceType": "android", "installationId": installation, "channels": ["bob"]])
        let (_, saved) = try await URLSession.shared.data(for: save)
        #expect((saved as? HTTPURLResponse).map { $0.statusCode < 300 } == true)

        let phone = try await TestClient.connect(port: nodes.b.port, subprotocol: .protobuf3)
        phone.send(AndroidPushChannelTests.login(installation, appID: "switchboard-dev"))
        _ = try await phone.next(timeout: .seconds(5), "loggedin") { $0.cmd == .loggedin }
        let alice = try await TestClient.login("alice", port: nodes.a.port)
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("from the other node", cid: cid)
        let data = try await phone.next(timeout: .seconds(10), "data") { $0.cmd == .data }
        #expect(data.dataMessage.ids == [sent.uid])
    }

    static func aliceAndBob(on nodes: Nodes) async throws -> (alice: TestClient, bob: TestClient, cid: String) {
        let alice = try await TestClient.login("alice", port: nodes.a.port)
        let bob = try await TestClient.login("bob", port: nodes.b.port)
        return (alice, bob, try await alice.startConversation(members: ["bob"]))
    }

    /// alice on node a, with a will message for her conversation with bob, on node b.
    static func aliceWithAWill(_ text: String, on nodes: Nodes) async throws -> (TestClient, TestClient) {
        let (alice, bob, cid) = try await Self.aliceAndBob(on: nodes)
        try await leaveWill(text, by: alice, in: cid)
        return (alice, bob)
    }

    /// `client`'s will: `text`, sent to conversation `cid` if its connection drops.
    static func leaveWill(_ text: String, by client: TestClient, in cid: String) async throws {
        var will = GenericCommand.text(text, cid: cid)
        will.directMessage.will = true
        #expect(try await client.request(will).cmd == .ack)
    }

    /// A call (a POST with `body` unless told) with the master key of the app the server
    /// processes serve (the default one).
    static func rest(_ node: ServerProcess, _ path: String, _ body: [String: Any]?, method: String = "POST") async throws -> (Int, [String: Any]) {
        let config = ServerConfig()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(node.port)\(path)")!)
        request.httpMethod = method
        request.setValue(config.appID, forHTTPHeaderField: "X-LC-Id")
        request.setValue(config.masterKey + ",master", forHTTPHeaderField: "X-LC-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }
}

extension ClusterTests {
    /// Receipts, edits and recalls cross nodes: the sender on one hears that the receiver on
    /// the other got and read its message, and the receiver sees the sender's edit.
    @Test func receiptsAndEditsReachTheOtherNode() async throws {
        let nodes = try await Nodes.start()
        defer { nodes.stop() }
        let (alice, bob, cid) = try await Self.aliceAndBob(on: nodes)
        let sent = try await alice.request(.text("tell me", cid: cid, receipt: true)).ackMessage
        _ = try await bob.nextMessage()
        bob.send(.ack(cid: cid, from: sent.t, to: sent.t))
        let delivered = try await alice.next(timeout: .seconds(5), "delivery receipt") { $0.cmd == .rcp }.rcpMessage
        #expect(delivered.id == sent.uid && delivered.from == "bob" && !delivered.read)
        bob.send(.read(cid: cid, upTo: sent.t))
        let read = try await alice.next(timeout: .seconds(5), "read receipt") { $0.cmd == .rcp }.rcpMessage
        #expect(read.read && read.from == "bob" && read.t == sent.t)

        let edited = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "told you"))
        #expect(edited.cmd == .patch && edited.op == .modified)
        let patch = try await bob.next(timeout: .seconds(5), "patch/modify") { $0.cmd == .patch && $0.op == .modify }
        #expect(patch.patchMessage.patches.first?.data == "told you" && patch.peerID == "bob")
    }
}

import Foundation
import SwitchboardCore
import SwitchboardWire
import Testing

/// `logs`: history pages. On the core alone, but for messages of the same millisecond, which
/// only a store written by several nodes holds (on a whole server over such a store).
@Suite struct HistoryTests {
    /// A conversation with ten messages "m0" … "m9"; returns its id and the acks in order.
    private func conversationWithTenMessages(_ client: some SDKClient) async throws -> (String, [AckCommand]) {
        let cid = try await client.startConversation(members: ["bob"])
        var acks: [AckCommand] = []
        for index in 0..<10 {
            acks.append(try await client.sendText(index.isMultiple(of: 3) ? #"{"_lctext":"m\#(index)","_lctype":-2}"# : "m\(index)", cid: cid))
        }
        return (cid, acks)
    }

    private func texts(_ reply: GenericCommand) -> [String] {
        reply.logsMessage.logs.map { item in
            item.data.hasPrefix("{") ? String(item.data.split(separator: "\"")[3]) : item.data
        }
    }

    @Test func newestPageComesOldestFirst() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let (cid, acks) = try await conversationWithTenMessages(alice)
        let reply = try await alice.request(.logs(cid: cid, limit: 3))
        #expect(texts(reply) == ["m7", "m8", "m9"])
        let last = try #require(reply.logsMessage.logs.last)
        #expect(last.msgID == acks[9].uid)
        #expect(last.timestamp == acks[9].t)
        #expect(last.from == "alice")
        await server.stop()
    }

    @Test func pagingBackwardsFromTheOldestItem() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let (cid, acks) = try await conversationWithTenMessages(alice)
        let reply = try await alice.request(.logs(cid: cid, limit: 4, t: acks[7].t))
        #expect(texts(reply) == ["m3", "m4", "m5", "m6"])
        await server.stop()
    }

    @Test func forwardFromATimeWithAnEndBound() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let (cid, acks) = try await conversationWithTenMessages(alice)
        let forward = try await alice.request(.logs(cid: cid, limit: 3, t: acks[2].t, direction: .new))
        #expect(texts(forward) == ["m3", "m4", "m5"])
        let bounded = try await alice.request(.logs(cid: cid, limit: 10, t: acks[2].t, tt: acks[5].t, direction: .new))
        #expect(texts(bounded) == ["m3", "m4"])
        var inclusive = GenericCommand.logs(cid: cid, limit: 10, t: acks[2].t, tt: acks[5].t, direction: .new)
        inclusive.logsMessage.tIncluded = true
        inclusive.logsMessage.ttIncluded = true
        #expect(texts(try await alice.request(inclusive)) == ["m2", "m3", "m4", "m5"])
        await server.stop()
    }

    @Test func filterByMessageType() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let (cid, _) = try await conversationWithTenMessages(alice)
        let images = try await alice.request(.logs(cid: cid, limit: 20, lctype: -2))
        #expect(texts(images) == ["m0", "m3", "m6", "m9"])
        await server.stop()
    }

    @Test func zeroLimitReturnsNothingAndHugeLimitsAreCapped() async throws {
        let server = try await CoreHarness.start { $0.maxHistoryLimit = 5 }
        let alice = try await server.login("alice")
        let (cid, _) = try await conversationWithTenMessages(alice)
        #expect(try await alice.request(.logs(cid: cid, limit: 0)).logsMessage.logs.isEmpty)
        #expect(try await alice.request(.logs(cid: cid, limit: 1000)).logsMessage.logs.count == 5)
        await server.stop()
    }

    @Test func outsidersCannotReadHistory() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let (cid, _) = try await conversationWithTenMessages(alice)
        #expect(try await mallory.request(.logs(cid: cid)).errorMessage.code == 4312)
        #expect(try await alice.request(.logs(cid: "missing")).errorMessage.code == 4303)
        await server.stop()
    }
}

extension HistoryTests {
    /// Two nodes may stamp two messages of a conversation with the same millisecond; paging
    /// with the SDK's `t` and `mid` still reaches each of them once.
    @Test func messagesOfTheSameMillisecondArePagedByTheirIds() async throws {
        let directory = TestServer.temporaryDirectory()
        let cid = "same-ms-conversation"
        let stamp: Int64 = 1_700_000_000_000
        try await TestDatabase.withStore(dataDirectory: directory) { store in
            try await store.createConversation(Conversation(
                id: cid, kind: .normal, name: nil, creator: "alice", members: ["alice", "bob"], attributes: [:], uniqueKey: nil, createdAt: 1, updatedAt: 1
            ))
            for index in 0..<3 {
                _ = try await store.append(
                    Message(id: "same-ms-\(index)", conversationID: cid, from: "bob", content: .text("m\(index)"), timestamp: stamp), queueFor: .nobody
                )
            }
        }
        let server = try await TestServer.start(dataDirectory: directory)
        let alice = try await server.login("alice")
        var seen: [String] = []
        var page = try await alice.request(.logs(cid: cid, limit: 1))
        while let item = page.logsMessage.logs.first {
            seen.append(item.data)
            var older = GenericCommand.logs(cid: cid, limit: 1, t: item.timestamp)
            older.logsMessage.mid = item.msgID
            page = try await alice.request(older)
        }
        #expect(seen == ["m2", "m1", "m0"])

        // Newer, from the oldest, and with the bound included.
        var newer = GenericCommand.logs(cid: cid, limit: 5, t: stamp, direction: .new)
        newer.logsMessage.mid = "same-ms-0"
        #expect(texts(try await alice.request(newer)) == ["m1", "m2"])
        newer.logsMessage.tIncluded = true
        #expect(texts(try await alice.request(newer)) == ["m0", "m1", "m2"])
        try await server.stop()
    }
}

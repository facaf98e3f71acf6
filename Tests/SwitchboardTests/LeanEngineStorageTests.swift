import Foundation
import Testing

/// A LeanEngine app in LeanCloud's own Python SDK with `LEANCLOUD_API_SERVER` pointed at
/// Switchboard, as an app kept running as a remote hook is: its `leancloud.Query` and
/// `leancloud.Object` calls read and write Switchboard's data, `_Conversation` included.
@Suite struct LeanEngineStorageTests {
    /// What the app's code does with its data, as LeanCloud's SDK is used; the answer says
    /// what it read.
    private static let cloud = """
        @engine.define
        def readAppData(**params):
            blocked = leancloud.Query('Blacklist').equal_to('owner', params['owner']).find()
            conversations = leancloud.Query('_Conversation').contained_in('m', [params['member']]).find()

            Counter = leancloud.Object.extend('Counter')
            counter = Counter(name='visits')
            counter.increment('n', 1)
            counter.save()
            counter.increment('n', 2)
            counter.save()
            counter_again = leancloud.Query('Counter').get(counter.id)

            Note = leancloud.Object.extend('Note')
            notes = [Note(text='a'), Note(text='b'), Note(text='c')]
            leancloud.Object.save_all(notes)
            notes[2].destroy()
            leancloud.Object.destroy_all([notes[1]])

            return {
                'blocked': sorted(row.get('blocked') for row in blocked),
                'conversations': [{'id': c.id, 'name': c.get('name'), 'm': c.get('m')} for c in conversations],
                'counter': {'id': counter.id, 'n': counter_again.get('n'), 'created': counter_again.created_at is not None},
                'notes': [note.id for note in notes],
                'noteCount': leancloud.Query('Note').count(),
                'firstNote': leancloud.Query('Note').ascending('text').first().get('text'),
                'scanned': sorted(row.get('blocked') for row in leancloud.Query('Blacklist').scan(batch_size=2)),
            }
        """

    @Test func pythonsLeanCloudSDKReadsAndWritesSwitchboardsData() async throws {
        let server = try await TestServer.start()
        for (owner, blocked) in [("alice", "bob"), ("alice", "eve"), ("carol", "dan")] {
            _ = try await server.create("Blacklist", ["owner": owner, "blocked": blocked])
        }
        let (_, conversation) = try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "team", "m": ["alice", "bob"]])
        let cid = try #require(conversation["objectId"] as? String)
        _ = try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "elsewhere", "m": ["carol"]])

        let engine = try await LeanEngineApp.start(Self.cloud, apiServer: "http://127.0.0.1:\(server.port)")
        defer { engine.stop() }
        let (status, answer) = try await engine.call("readAppData", ["owner": "alice", "member": "bob"])
        #expect(status == 200, "\(answer ?? "")")
        let read = try #require(answer as? [String: Any], "\(answer ?? "")")

        #expect(read["blocked"] as? [String] == ["bob", "eve"])
        let conversations = try #require(read["conversations"] as? [[String: Any]])
        #expect(conversations.count == 1 && conversations.first?["id"] as? String == cid)
        #expect(conversations.first?["name"] as? String == "team" && conversations.first?["m"] as? [String] == ["alice", "bob"])
        let counter = try #require(read["counter"] as? [String: Any])
        #expect(counter["n"] as? Int == 3 && counter["created"] as? Bool == true)
        #expect(read["noteCount"] as? Int == 1 && read["firstNote"] as? String == "a")
        #expect(read["scanned"] as? [String] == ["bob", "dan", "eve"])

        // What it wrote is in Switchboard's data.
        let counterID = try #require(counter["id"] as? String)
        let (_, stored) = try await server.rest("GET", "/1.1/classes/Counter/\(counterID)")
        #expect(stored["n"] as? Int == 3 && stored["name"] as? String == "visits")
        let notes = try #require(read["notes"] as? [String])
        #expect(try await server.find("Note", [:]).compactMap { $0["objectId"] as? String } == [notes[0]])
        try await server.stop()
    }
}

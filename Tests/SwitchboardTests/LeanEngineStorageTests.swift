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

    /// Queries as the Python SDK builds them: its dates (`datetime`, in UTC with
    /// milliseconds), pointers and `include` with `select` of an included field, regexes
    /// (its `contains` sends the text unquoted), subqueries, `or_`, and not-found answers.
    private static let queries = """
        from datetime import datetime, timedelta, timezone

        @engine.define
        def queryAppData(**params):
            Author = leancloud.Object.extend('Author')
            Book = leancloud.Object.extend('Book')
            ann, bob = Author(name='ann', born=datetime(1990, 5, 6, 7, 8, 9, 123000, tzinfo=timezone.utc)), Author(name='bob')
            leancloud.Object.save_all([ann, bob])
            books = [
                Book(title='First Steps', author=ann, tags=['a', 'b'], meta={'lang': 'en', 'pages': 120}),
                Book(title='second.edition (2)', author=bob, tags=['b'], meta={'lang': 'fr', 'pages': 300}),
                Book(title='Third', tags=[], meta={'lang': 'en'}),
            ]
            leancloud.Object.save_all(books)
            made = books[0].created_at

            def titles(query):
                return sorted(book.get('title') for book in query.find())

            Q = leancloud.Query
            with_author = Q('Book').include('author').select('title', 'author.name').equal_to('title', 'First Steps').first()
            # LeanStorage answered {} for no such object, which this SDK takes as an object without dates.
            missing = Q('Book').get('000000000000000000000000').created_at is None
            none_first = None
            try:
                Q('Book').equal_to('title', 'none').first()
            except leancloud.LeanCloudError as error:
                none_first = error.code
            return {
                'byAuthor': titles(Q('Book').equal_to('author', ann)),
                'byAuthors': titles(Q('Book').contained_in('author', [ann, bob])),
                'bornAfter': [a.get('name') for a in Q('Author').greater_than('born', datetime(1990, 5, 6, 7, 8, 9, tzinfo=timezone.utc)).find()],
                'madeSince': titles(Q('Book').greater_than_or_equal_to('createdAt', made)),
                'madeBefore': titles(Q('Book').less_than('createdAt', made - timedelta(seconds=1))),
                'tagged': titles(Q('Book').contains_all('tags', ['b', 'a'])),
                'noTags': titles(Q('Book').size_equal_to('tags', 0)),
                'contains': titles(Q('Book').contains('title', 'edition')),
                'starts': titles(Q('Book').startswith('title', 'Fir')),
                'matched': titles(Q('Book').matched('title', '^f', ignore_case=True)),
                'dotted': titles(Q('Book').equal_to('meta.lang', 'en').greater_than('meta.pages', 100)),
                'noAuthor': titles(Q('Book').does_not_exist('author')),
                'either': titles(Q.or_(Q('Book').equal_to('title', 'Third'), Q('Book').equal_to('tags', 'a'))),
                'byNamedAuthor': titles(Q('Book').matches_query('author', Q('Author').equal_to('name', 'bob'))),
                'byKey': titles(Q('Author').matches_key_in_query('name', 'title', Q('Book'))),
                'newestFirst': [b.get('title') for b in Q('Book').descending('createdAt').limit(2).find()],
                'count': Q('Book').equal_to('meta.lang', 'en').count(),
                'withAuthor': {'title': with_author.get('title'), 'name': with_author.get('author').get('name'), 'fetched': with_author.get('author').created_at is not None},
                'missing': missing,
                'noneFirst': none_first,
            }
        """

    @Test func pythonsLeanCloudSDKQueriesAsItBuildsThem() async throws {
        let server = try await TestServer.start()
        let engine = try await LeanEngineApp.start(Self.queries, apiServer: "http://127.0.0.1:\(server.port)")
        defer { engine.stop() }
        let (status, answer) = try await engine.call("queryAppData", [:])
        #expect(status == 200, "\(answer ?? "")")
        let read = try #require(answer as? [String: Any], "\(answer ?? "")")
        let expected: [String: [String]] = [
            "byAuthor": ["First Steps"], "byAuthors": ["First Steps", "second.edition (2)"], "bornAfter": ["ann"],
            "madeSince": ["First Steps", "Third", "second.edition (2)"], "madeBefore": [], "tagged": ["First Steps"], "noTags": ["Third"],
            "contains": ["second.edition (2)"], "starts": ["First Steps"], "matched": ["First Steps"], "dotted": ["First Steps"],
            "noAuthor": ["Third"], "either": ["First Steps", "Third"], "byNamedAuthor": ["second.edition (2)"], "byKey": [],
        ]
        for (name, titles) in expected {
            #expect(read[name] as? [String] == titles, "\(name): \(read[name] ?? "none")")
        }
        #expect(read["newestFirst"] as? [String] == ["Third", "second.edition (2)"])
        #expect(read["count"] as? Int == 2)
        let withAuthor = read["withAuthor"] as? [String: Any]
        #expect(withAuthor?["title"] as? String == "First Steps" && withAuthor?["name"] as? String == "ann" && withAuthor?["fetched"] as? Bool == true)
        #expect(read["missing"] as? Bool == true && read["noneFirst"] as? Int == 101)
        try await server.stop()
    }
}

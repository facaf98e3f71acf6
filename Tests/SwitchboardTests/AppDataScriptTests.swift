import Foundation
import Logging
import Synchronization
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJSON
import SwitchboardStore
import Testing

@testable import SwitchboardJS
@testable import SwitchboardServer

/// Hook scripts reading and writing the app's LeanStorage classes through `AV.Object` and
/// `AV.Query`, as LeanEngine code does: real JavaScriptCore in script hosts, real hook calls
/// through the pipeline, `LocalAppData` over a real SQLite store; the first hooks also with
/// the data on an external LeanStorage (`hooks.storage`).
@Suite struct AppDataScriptTests {
    @Test(arguments: AppDataPlace.allCases)
    func aBlacklistHookDropsABlockedSendersMessageAndLetsOthersThrough(_ place: AppDataPlace) async throws {
        let hooks = try await ScriptedHooks(on: place, ["blacklist.js": """
            var AV = require('leanengine');
            AV.Cloud.define('_messageReceived', function (request, response) {
              var query = new AV.Query('Blacklist');
              query.equalTo('owner', request.params.toPeers[0]);
              query.equalTo('blocked', request.params.fromPeer);
              query.first({
                success: function (found) { response.success(found ? { drop: true } : {}); },
                error: function (error) { response.error(error); }
              });
            });
            """])
        let row = try await hooks.data.create(in: "Blacklist", body: ["owner": "bob", "blocked": "mallory"], fetchWhenSave: false)
        _ = try await hooks.data.create(in: "Blacklist", body: ["owner": "carol", "blocked": "alice"], fetchWhenSave: false)
        #expect(try await hooks.send("hi", from: "mallory") == nil)
        #expect(try await hooks.send("hi", from: "alice") == "hi")
        // The hook reads the list as it is now.
        try await hooks.data.delete(in: "Blacklist", id: try #require(row["objectId"]?.stringValue), condition: nil)
        #expect(try await hooks.send("hi again", from: "mallory") == "hi again")
        try await hooks.stop()
    }

    @Test(arguments: AppDataPlace.allCases)
    func aUserLookupIncludesThePointerToItsSettings(_ place: AppDataPlace) async throws {
        let hooks = try await ScriptedHooks(on: place, ["nick.js": """
            AV.Cloud.onIMMessageReceived(async (request) => {
              const user = await new AV.Query(AV.User).equalTo('username', request.params.fromPeer).include('settings').first();
              if (!user) return {};
              const settings = user.get('settings');
              const bare = (await new AV.Query('_User').get(user.id)).get('settings');
              const unfetched = [bare.id === settings.id, bare.createdAt, bare.get('nickname')].join('/');
              await bare.fetch({ keys: ['nickname'] });
              const avatar = settings.get('avatar');
              const facts = [
                settings.get('nickname'), settings.className, settings.createdAt instanceof Date, settings.get('mutedUntil').toISOString(),
                avatar instanceof AV.File, avatar.name(), avatar.url(), user.getUsername(), unfetched, bare.get('nickname'), bare.has('mutedUntil'),
              ];
              return { content: facts.join(' ') + ': ' + request.params.content };
            });
            """])
        let avatar: JSONValue = ["__type": "File", "objectId": "f1", "name": "ally.png", "url": "https://files.example.com/ally.png", "metaData": ["size": 10]]
        let settings = try await hooks.data.create(
            in: "UserSettings", body: ["nickname": "Ally", "mutedUntil": ["__type": "Date", "iso": "2027-01-12T00:00:00.000Z"], "avatar": avatar],
            fetchWhenSave: false
        )
        let pointer: JSONValue = ["__type": "Pointer", "className": "UserSettings", "objectId": try #require(settings["objectId"])]
        _ = try await hooks.data.create(in: "_User", body: ["username": "alice", "settings": pointer], fetchWhenSave: false)
        #expect(try await hooks.send("hello") == "Ally UserSettings true 2027-01-12T00:00:00.000Z true ally.png https://files.example.com/ally.png alice true// Ally false: hello")
        #expect(try await hooks.send("hello", from: "bob") == "hello")
        try await hooks.stop()
    }

    @Test(arguments: AppDataPlace.allCases)
    func anObjectOneCallSavesALaterCallFinds(_ place: AppDataPlace) async throws {
        let hooks = try await ScriptedHooks(on: place, ["mentions.js": """
            const Mention = AV.Object.extend('Mention', { summary() { return this.get('from') + ':' + this.get('text'); } });
            const owner = () => AV.Object.createWithoutData('_User', 'u1');
            AV.Cloud.onIMMessageReceived(async (request) => {
              const [command, text] = request.params.content.split(' ');
              if (command === 'save') {
                const mention = new Mention({ from: request.params.fromPeer, text, at: new Date(Date.UTC(2026, 0, 2)), to: owner(), near: new AV.GeoPoint(39.9, 116.4) });
                await mention.save();
                return { content: [mention.id.length, mention.createdAt instanceof Date, +mention.createdAt === +mention.updatedAt, mention.dirty()].join(' ') };
              }
              const found = await new AV.Query(Mention).equalTo('to', owner()).greaterThan('at', new Date(Date.UTC(2026, 0, 1))).ascending('createdAt').find();
              return { content: found.map((m) => [m.summary(), m.get('at').toISOString(), m instanceof Mention, m.get('to').id, m.get('near') instanceof AV.GeoPoint].join(' ')).join(', ') };
            });
            """])
        #expect(try await hooks.send("save hi") == "24 true true false")
        #expect(try await hooks.send("save yo", from: "bob") == "24 true true false")
        #expect(try await hooks.send("find") == "alice:hi 2026-01-02T00:00:00.000Z true u1 true, bob:yo 2026-01-02T00:00:00.000Z true u1 true")
        // Stored as LeanStorage keeps them: a Date, a Pointer and a GeoPoint.
        let stored = try await hooks.data.find(ObjectQuery(className: "Mention", order: "createdAt")).results.first
        #expect(stored?["at"] == ["__type": "Date", "iso": "2026-01-02T00:00:00.000Z"])
        #expect(stored?["to"] == ["__type": "Pointer", "className": "_User", "objectId": "u1"])
        #expect(stored?["near"] == ["__type": "GeoPoint", "latitude": .double(39.9), "longitude": .double(116.4)])
        try await hooks.stop()
    }

    @Test func concurrentIncrementsAddsAndRemovesAllCount() async throws {
        let hooks = try await ScriptedHooks(workers: 4, ["counter.js": """
            AV.Cloud.onIMMessageReceived(async (request) => {
              const [id, value] = request.params.content.split(' ');
              const counter = AV.Object.createWithoutData('Counter', id);
              counter.increment('n').increment('n', 2).add('seen', value).remove('pending', [value]);
              await counter.save(null, { fetchWhenSave: true });
              return { content: String(counter.get('n')) };
            });
            """])
        let values = (0..<40).map { "m\($0)" }
        let created = try await hooks.data.create(in: "Counter", body: ["n": 0, "seen": [], "pending": .strings(values)], fetchWhenSave: false)
        let id = try #require(created["objectId"]?.stringValue)
        let counts = try await withThrowingTaskGroup(of: String?.self) { group in
            for value in values { group.addTask { try await hooks.send("\(id) \(value)") } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        // Each call saw the counter just after its own update: every count from 3 to 120 once.
        #expect(Set(counts.compactMap { $0.flatMap { Int($0) } }) == Set(stride(from: 3, through: 120, by: 3)))
        let counter = try #require(try await hooks.data.object(in: "Counter", id: id, include: [], keys: []))
        #expect(counter["n"] == 120)
        #expect(Set(counter["seen"]?.arrayValue?.compactMap(\.stringValue) ?? []) == Set(values))
        #expect(counter["seen"]?.arrayValue?.count == 40)
        #expect(counter["pending"] == [])
    }

    @Test func whatTheStoreRefusesReachesTheScriptWithItsCode() async throws {
        let directory = TestServer.temporaryDirectory()
        let data = LocalAppData(store: try SQLiteStore(path: directory + "/data.sqlite"))
        let report = try await ScriptTrial.run(source: """
            AV.Cloud.onIMMessageReceived(async () => {
              const attempt = (promise) => promise.then(() => 'ok', (e) => (e instanceof AV.Error) + ' ' + e.code);
              const note = new AV.Object('Note', { n: 1 });
              await note.save();
              const codes = [
                await attempt(new AV.Object('Bad-Name').save()),
                await attempt(new AV.Query('Note').get('0123456789abcdef01234567')),
                await attempt(note.save({ n: 2 }, { query: new AV.Query('Note').greaterThan('n', 5) })),
                await attempt(AV.Object.createWithoutData('Note', 'nope').save({ n: 1 })),
                await attempt(new AV.Object('Note').save({ 'bad key': 1 })),
                await attempt(AV.Object.createWithoutData('_Conversation', 'c1').save({ name: 'x' })),
              ];
              // A save that failed keeps its change for the next one.
              codes.push(note.get('n') + ' ' + note.dirty('n'));
              codes.push(await attempt(note.save(null, { query: new AV.Query('Note').equalTo('n', 1) })));
              return { content: codes.join(', ') };
            });
            """, file: "codes.js", hook: "_messageReceived", paramsJSON: "{}", budget: .seconds(30), services: ScriptServices(data: data))
        #expect(report.outcome == .value(#"{"content":"true 103, true 101, true 305, true 101, true 105, true 119, 2 true, ok"}"#))
        // Only the write to _Conversation, which this server cannot do, is logged as refused.
        #expect(report.console.map(\.level) == ["refused"])
        #expect(report.console.first?.text.hasPrefix("codes.js:11: That operation isn't allowed for clients. _Conversation is read-only here") == true)
        #expect(try await data.find(ObjectQuery(className: "Note")).results.map { $0["n"] } == [2])
    }

    @Test func queriesCountFirstGetCombineAndMatchSubqueries() async throws {
        let hooks = try await ScriptedHooks(["posts.js": """
            const Post = AV.Object.extend('Post');
            AV.Cloud.onIMMessageReceived(async (request) => {
              const ids = JSON.parse(request.params.content);
              const posts = () => new AV.Query(Post);
              const titles = (list) => list.map((post) => post.get('title')).join('+');
              const kiwi = new AV.Query('Author').equalTo('country', 'NZ');
              const ann = AV.Object.createWithoutData('Author', ids.ann);
              const names = (list) => list.map((author) => author.get('name')).join('+');
              // Started together, they are answered in one round of questions.
              const asked = {
                count: posts().count(),
                first: posts().descending('stars').first().then((post) => post.get('title')),
                get: posts().select('title').get(ids.two).then((got) => Object.keys(got.toJSON()).sort().join(',') + ' ' + got.get('title') + ' ' + got.has('stars')),
                or: AV.Query.or(posts().equalTo('title', 'One'), posts().greaterThan('stars', 8)).ascending('stars').find().then(titles),
                and: AV.Query.and(posts().greaterThan('stars', 1), posts().lessThan('stars', 6)).ascending('stars').find().then(titles),
                inQuery: posts().matchesQuery('author', kiwi).ascending('title').find().then(titles),
                notInQuery: posts().doesNotMatchQuery('author', kiwi).find().then(titles),
                select: new AV.Query('Author').matchesKeyInQuery('name', 'authorName', posts().greaterThan('stars', 3)).find().then(names),
                dontSelect: new AV.Query('Author').doesNotMatchKeyInQuery('name', 'authorName', posts()).find().then(names),
                equalToObject: posts().equalTo('author', ann).count(),
                containedIn: posts().containedIn('author', [AV.Object.createWithoutData('Author', ids.bo)]).find().then(titles),
                include: posts().include('author').equalTo('title', 'Two').first().then((post) => post.get('author').get('name')),
                skipLimit: posts().ascending('stars').skip(1).limit(1).find().then(titles),
                none: posts().equalTo('title', 'Four').first().then(String),
                missing: posts().get(ids.ann).then(() => 'found', (error) => error.code),
              };
              const keys = Object.keys(asked);
              const values = await Promise.all(keys.map((key) => asked[key]));
              const results = {};
              keys.forEach((key, index) => { results[key] = values[index]; });
              return { content: JSON.stringify(results) };
            });
            """])
        func create(_ className: String, _ body: [String: JSONValue]) async throws -> JSONValue {
            try #require(try await hooks.data.create(in: className, body: body, fetchWhenSave: false)["objectId"])
        }
        let ann = try await create("Author", ["name": "Ann", "country": "NZ"])
        let bo = try await create("Author", ["name": "Bo", "country": "CN"])
        func author(_ id: JSONValue) -> JSONValue { ["__type": "Pointer", "className": "Author", "objectId": id] }
        _ = try await create("Post", ["title": "One", "stars": 5, "author": author(ann), "authorName": "Ann"])
        let two = try await create("Post", ["title": "Two", "stars": 2, "author": author(bo), "authorName": "Bo"])
        _ = try await create("Post", ["title": "Three", "stars": 9, "author": author(ann), "authorName": "Ann"])
        let ids: JSONValue = ["ann": ann, "bo": bo, "two": two]
        let answer = try JSONValue(parsing: try #require(try await hooks.send(ids.jsonString)))
        let expected: JSONValue = [
            "count": 3, "first": "Three", "get": "createdAt,objectId,title,updatedAt Two false", "or": "One+Three", "and": "Two+One",
            "inQuery": "One+Three", "notInQuery": "Two", "select": "Ann", "dontSelect": "", "equalToObject": 2, "containedIn": "Two",
            "include": "Bo", "skipLimit": "One", "none": "undefined", "missing": 101,
        ]
        #expect(answer == expected)
    }

    @Test func saveAllSavesWhatObjectsPointToFirstAndDestroyAllDeletes() async throws {
        let hooks = try await ScriptedHooks(["batch.js": """
            AV.Cloud.onIMMessageReceived(async (request) => {
              if (request.params.content === 'clear') {
                const [first, ...rest] = await new AV.Query('Post').ascending('title').find();
                await first.destroy();
                await AV.Object.destroyAll(rest);
                return { content: String(await new AV.Query('Post').count()) };
              }
              const author = new AV.Object('Author', { name: 'New' });
              const posts = ['a', 'b'].map((title) => new AV.Object('Post', { title, author }));
              await AV.Object.saveAll(posts);
              const lone = new AV.Object('Post', { title: 'c', author: new AV.Object('Author', { name: 'Other' }) });
              await lone.save();
              return { content: [author.id === posts[1].get('author').id, Boolean(lone.get('author').id), posts.every((post) => !post.dirty())].join(' ') };
            });
            """])
        #expect(try await hooks.send("save") == "true true true")
        let posts = try await hooks.data.find(ObjectQuery(className: "Post", order: "title", include: ["author"])).results
        #expect(posts.map { $0["author"]?["name"] } == ["New", "New", "Other"])
        #expect(try await hooks.send("clear") == "0")
        #expect(try await hooks.data.find(ObjectQuery(className: "Author", count: true)).count == 2)
    }

    /// An external LeanStorage may answer late: the call's budget bounds the wait, and the
    /// script gets LeanStorage's time-out code in time to answer.
    @Test func aStoreThatDoesNotAnswerWithinTheBudgetTimesOut() async throws {
        let hooks = try await ScriptedHooks(budget: .seconds(2), wrap: { SlowAppData(base: $0) }, ["slow.js": """
            AV.Cloud.onIMMessageReceived(() => new AV.Query('Todo').find().then(() => ({ content: 'answered' }), (error) => ({ content: error.code + ' ' + error.message })));
            """])
        #expect(try await hooks.send("x") == "124 The request timed out: the hook call's budget was spent before find on Todo answered.")
    }

    /// What a save sends: only the keys that changed since the store last gave the object,
    /// repeated operations combined into one; the operations apply locally too.
    @Test func aSaveSendsOnlyItsChangesAndAppliesThemLocally() throws {
        let script = try ScriptContext(source: """
            AV.Cloud.onIMMessageReceived(async () => {
              const counter = AV.Object.createWithoutData('Counter', 'c1');
              await counter.fetch();
              counter.increment('n').increment('n', 4).add('tags', 'a').add('tags', ['b', 'c']).remove('old', 1).addUnique('uniq', ['x', 'x', 'y']);
              counter.set({ title: 't', when: new Date(Date.UTC(2026, 0, 1)), who: AV.Object.createWithoutData('_User', 'u1') });
              counter.unset('gone');
              counter.get('list').push('z');
              await counter.save();
              return { content: JSON.stringify([counter.get('n'), counter.get('tags'), counter.get('old'), counter.has('gone'), counter.dirty(), counter.toJSON()]) };
            });
            """, file: "ops.js", budget: .milliseconds(500))
        guard case .asking(let fetch) = script.invoke(hook: "_messageReceived", paramsJSON: "{}") else {
            Issue.record("the fetch asked nothing")
            return
        }
        #expect(try JSONValue(parsing: fetch).arrayValue?.first?["request"] == ["action": "object", "className": "Counter", "id": "c1", "include": [], "keys": []])
        let fetched = #"{"objectId":"c1","n":1,"tags":["x"],"old":[1,2],"uniq":["y","w"],"gone":true,"list":["y"],"createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z"}"#
        guard case .asking(let save) = script.resume(answersJSON: #"[{"id":1,"result":\#(fetched)}]"#) else {
            Issue.record("the save asked nothing")
            return
        }
        let body: JSONValue = [
            "n": ["__op": "Increment", "amount": 5], "tags": ["__op": "Add", "objects": ["a", "b", "c"]], "old": ["__op": "Remove", "objects": [1]],
            "uniq": ["__op": "AddUnique", "objects": ["x", "y"]],
            "title": "t", "when": ["__type": "Date", "iso": "2026-01-01T00:00:00.000Z"], "who": ["__type": "Pointer", "className": "_User", "objectId": "u1"],
            "gone": ["__op": "Delete"], "list": ["y", "z"],
        ]
        #expect(try JSONValue(parsing: save).arrayValue?.first?["request"] == ["action": "update", "className": "Counter", "id": "c1", "body": body, "fetchWhenSave": false])
        let outcome = script.resume(answersJSON: #"[{"id":2,"result":{"objectId":"c1","updatedAt":"2026-01-02T00:00:00.000Z"}}]"#)
        guard case .value(let json) = outcome, let content = try JSONValue(parsing: json)["content"]?.stringValue else {
            Issue.record("the call did not answer: \(outcome)")
            return
        }
        let object: JSONValue = [
            "n": 6, "tags": ["x", "a", "b", "c"], "old": [2], "uniq": ["y", "w", "x"], "list": ["y", "z"], "title": "t", "when": "2026-01-01T00:00:00.000Z",
            "who": ["__type": "Pointer", "className": "_User", "objectId": "u1"], "objectId": "c1",
            "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-02T00:00:00.000Z",
        ]
        #expect(try JSONValue(parsing: content) == [6, ["x", "a", "b", "c"], [2], false, false, object])
    }
}

/// Scripts in a hooks folder of their own, loaded with app data over a fresh SQLite store,
/// called through the pipeline as the server calls them. Storage calls wait within the
/// call's budget: by default one that a loaded test machine does not run out of.
/// Where hooks' app data is: this server's store, or an external LeanStorage, played by
/// another Switchboard serving LeanStorage's REST API.
enum AppDataPlace: String, CaseIterable, Sendable {
    case local
    case external
}

private struct ScriptedHooks {
    /// The hooks' data; tests write through it too, as a backend would.
    let data: any AppData
    let pipeline: HookPipeline
    let library: ScriptLibrary
    /// The server keeping external data.
    private let storageServer: TestServer?

    init(
        workers: Int = 1, budget: Duration = .seconds(20), on place: AppDataPlace = .local, wrap: (any AppData) -> any AppData = { $0 },
        _ scripts: [String: String]
    ) async throws {
        let directory = TestServer.temporaryDirectory()
        for (name, source) in scripts { try source.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        let store = try SQLiteStore(path: directory + "/data.sqlite")
        switch place {
        case .local:
            data = LocalAppData(store: store)
            storageServer = nil
        case .external:
            let server = try await TestServer.start()
            let storage = RemoteStorage(url: URL(string: "http://127.0.0.1:\(server.port)")!, appID: server.config.appID, masterKey: server.config.masterKey)
            data = RemoteAppData(storage: storage, conversations: StoredConversations(store: store))
            storageServer = server
        }
        pipeline = HookPipeline(settings: HookSettings(defaultBudget: budget), logger: Logger(label: "test"))
        library = ScriptLibrary(
            settings: .init(directory: directory, workers: workers), pipeline: pipeline, logger: Logger(label: "test"), services: ScriptServices(data: wrap(data))
        )
        let errors = await library.loadAll()
        guard errors.isEmpty else { throw ScriptedHooksError(description: "scripts did not load: \(errors)") }
    }

    func stop() async throws {
        try await storageServer?.stop()
    }

    /// The content `_messageReceived` leaves of a message to bob and carol, nil when a hook
    /// dropped it; throws when a hook failed.
    func send(_ content: String, from sender: String = "alice") async throws -> String? {
        var request = MessageReceivedRequest.sample(content)
        request.fromPeer = sender
        let outcome = await pipeline.run(request)
        if let stop = outcome.stop {
            guard !stop.failed else { throw ScriptedHooksError(description: "the hook failed: \(stop)") }
            return nil
        }
        guard outcome.steps.count == 1 else { throw ScriptedHooksError(description: "the hook failed (see its log)") }
        return outcome.request.content
    }
}

private struct ScriptedHooksError: Error, CustomStringConvertible {
    let description: String
}

/// App data that never answers a query (until cancelled), as a remote LeanStorage that
/// hangs.
private struct SlowAppData: AppData {
    let base: any AppData

    func create(in className: String, body: [String: JSONValue], fetchWhenSave: Bool) async throws -> JSONValue {
        try await base.create(in: className, body: body, fetchWhenSave: fetchWhenSave)
    }

    func object(in className: String, id: String, include: [String], keys: [String]) async throws -> JSONValue? {
        try await base.object(in: className, id: id, include: include, keys: keys)
    }

    func update(in className: String, id: String, body: [String: JSONValue], condition: JSONValue?, fetchWhenSave: Bool) async throws -> JSONValue {
        try await base.update(in: className, id: id, body: body, condition: condition, fetchWhenSave: fetchWhenSave)
    }

    func delete(in className: String, id: String, condition: JSONValue?) async throws {
        try await base.delete(in: className, id: id, condition: condition)
    }

    func find(_ query: ObjectQuery) async throws -> ObjectQuery.Result {
        try await Task.sleep(for: .seconds(3600))
        return try await base.find(query)
    }

    func scan(in className: String, where whereDocument: JSONValue, scanKey: String?, cursor: String?, limit: Int) async throws -> (results: [JSONValue], cursor: String?) {
        try await base.scan(in: className, where: whereDocument, scanKey: scanKey, cursor: cursor, limit: limit)
    }

    func classNames() async throws -> [String] {
        try await base.classNames()
    }
}

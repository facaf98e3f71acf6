import Foundation
import Logging
import SwitchboardCore
import SwitchboardData
import SwitchboardJS
import SwitchboardJSON
import SwitchboardServer
@testable import SwitchboardStore
import Testing

/// The IM classes as an export walks them over LeanStorage's REST API
/// (`/1.1/scan/classes/_Conversation`, `_ConversationMemberInfo`, `_Installation`), answered
/// from the IM store, on SQLite and (under scripts/with-postgres) PostgreSQL alike.
@Suite struct IMClassWalkTests {
    static let base: Int64 = 1_767_000_000_000

    /// Every object id a walk of `className` with pages of `limit` gives, in order, and the pages it took.
    static func walk(_ server: TestServer, _ className: String, limit: Int?, where whereDocument: String? = nil) async throws -> (ids: [String], rows: [[String: Any]], pages: Int) {
        var rows: [[String: Any]] = [], cursor: String?, pages = 0
        repeat {
            var parameters: [(String, String)] = []
            if let limit { parameters.append(("limit", String(limit))) }
            if let whereDocument { parameters.append(("where", whereDocument)) }
            if let cursor { parameters.append(("cursor", cursor)) }
            let query = parameters.map { $0 + "=" + $1.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }.joined(separator: "&")
            let (status, answer) = try await server.rest("GET", "/1.1/scan/classes/\(className)?" + query)
            try #require(status == 200, "scan of \(className): \(answer)")
            rows += try #require(answer["results"] as? [[String: Any]])
            cursor = answer["cursor"] as? String
            #expect(answer.keys.contains("cursor"))
            pages += 1
        } while cursor != nil && pages < 10_000
        return (rows.compactMap { $0["objectId"] as? String }, rows, pages)
    }

    static func byteOrder(_ ids: [String]) -> [String] {
        ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func date(_ milliseconds: Int64) -> String {
        #"{"__type":"Date","iso":"\#(ISODate.string(milliseconds: milliseconds))"}"#
    }

    /// Over a thousand conversations, walked in pages of several sizes: each once, in object
    /// id order; temporary ones still alive among them with `temp` and `ttl`, expired ones
    /// not; `where` on `updatedAt` and `objectId` picks from them.
    @Test func everyConversationIsWalkedOnceInObjectIDOrder() async throws {
        let directory = TestServer.temporaryDirectory()
        let now = SystemWallClock().now()
        let alive = Conversation(
            id: Identifiers.temporaryConversationID(), kind: .temporary, name: nil, creator: "alice", members: ["alice", "bob"], attributes: [:],
            uniqueKey: nil, createdAt: now, updatedAt: now, expiresAt: now + 3_600_000
        )
        let ids = try await TestDatabase.withStore(dataDirectory: directory) { store in
            var ids: [String] = []
            for n in 0..<1005 {
                let conversation = Conversation(
                    id: Identifiers.conversationID(), kind: .normal, name: "c\(n)", creator: "alice", members: ["alice", "bob"],
                    attributes: ["n": .int(Int64(n))], uniqueKey: nil, createdAt: Self.base, updatedAt: Self.base + Int64(n)
                )
                try await store.createConversation(conversation)
                ids.append(conversation.id)
            }
            try await store.createConversation(alive)
            let expired = Conversation(
                id: Identifiers.temporaryConversationID(), kind: .temporary, name: nil, creator: "alice", members: ["alice"], attributes: [:],
                uniqueKey: nil, createdAt: now - 7_200_000, updatedAt: now - 7_200_000, expiresAt: now - 3_600_000
            )
            try await store.createConversation(expired)
            // The expired one is read, and not shown.
            let all = try await StoredConversations(store: store).page(after: nil, limit: 2000)
            #expect(all.objects.count == 1006 && all.next == nil)
            #expect(!all.objects.contains { $0["objectId"]?.stringValue == expired.id })
            return ids
        }
        let expected = Self.byteOrder(ids + [alive.id])
        let server = try await TestServer.start(dataDirectory: directory)

        for limit in [1000, 333, 7] {
            let walked = try await Self.walk(server, "_Conversation", limit: limit)
            #expect(walked.ids == expected, "pages of \(limit)")
            #expect(walked.pages == (expected.count + limit - 1) / limit, "pages of \(limit)")
        }
        let (_, first) = try await server.rest("GET", "/1.1/scan/classes/_Conversation")
        #expect((first["results"] as? [Any])?.count == 100 && first["cursor"] is String)
        let (_, capped) = try await server.rest("GET", "/1.1/scan/classes/_Conversation?limit=5000")
        #expect((capped["results"] as? [Any])?.count == 1000)

        let rows = try await Self.walk(server, "_Conversation", limit: 1000).rows
        let temporary = try #require(rows.first { $0["objectId"] as? String == alive.id })
        #expect(temporary["temp"] as? Bool == true && temporary["ttl"] as? Int == 3600 && temporary["m"] as? [String] == ["alice", "bob"])
        let normal = try #require(rows.first { $0["objectId"] as? String == ids[7] })
        #expect(normal["name"] as? String == "c7" && normal["n"] as? Int == 7 && normal["c"] as? String == "alice" && normal["tr"] as? Bool == false)
        #expect(normal["temp"] == nil && normal["createdAt"] as? String == ISODate.string(milliseconds: Self.base))
        #expect(normal["updatedAt"] as? String == ISODate.string(milliseconds: Self.base + 7))

        // Changed since a time (as an export run again asks), before a time, from an id on.
        let since = try await Self.walk(server, "_Conversation", limit: 2, where: #"{"updatedAt":{"$gt":\#(Self.date(Self.base + 1000))}}"#)
        #expect(since.ids == Self.byteOrder(Array(ids[1001...]) + [alive.id]))
        let before = try await Self.walk(server, "_Conversation", limit: 100, where: #"{"updatedAt":{"$lt":\#(Self.date(Self.base + 3))}}"#)
        #expect(before.ids == Self.byteOrder(Array(ids[..<3])))
        let rest = try await Self.walk(server, "_Conversation", limit: 200, where: #"{"objectId":{"$gt":"\#(expected[500])"}}"#)
        #expect(rest.ids == Array(expected[501...]))
        let from = try await Self.walk(server, "_Conversation", limit: 200, where: #"{"objectId":{"$gte":"\#(expected[500])"}}"#)
        #expect(from.ids == Array(expected[500...]))

        let (refused, answer) = try await server.rest("GET", "/1.1/scan/classes/_Conversation?scan_key=updatedAt")
        #expect(refused == 400 && answer["code"] as? Int == 1)
        try await server.stop()
    }

    /// Saved devices with their channels and badge, as `_Installation` rows; roles as
    /// `_ConversationMemberInfo` rows with the ids the member-infos route gives; neither
    /// written through LeanStorage's API.
    @Test func installationsAndRolesAreReadOnlyClasses() async throws {
        let server = try await TestServer.start()
        let (_, phone) = try await server.rest("POST", "/1.1/installations", body: ["deviceType": "ios", "deviceToken": "phone-token", "channels": ["alice"]], key: server.config.appKey)
        let phoneID = try #require(phone["objectId"] as? String)
        #expect(try await server.rest("PUT", "/1.1/installations/\(phoneID)", body: ["badge": 3], key: server.config.appKey).0 == 200)
        let (_, tablet) = try await server.rest("POST", "/1.1/installations", body: [
            "deviceType": "android", "installationId": "tablet-install", "registrationId": "tablet-fcm", "vendor": "fcm", "channels": ["bob", "news"],
        ], key: server.config.appKey)
        let tabletID = try #require(tablet["objectId"] as? String)

        let devices = try await Self.walk(server, "_Installation", limit: 1)
        #expect(devices.ids == Self.byteOrder([phoneID, tabletID]))
        let phoneRow = try #require(devices.rows.first { $0["objectId"] as? String == phoneID })
        #expect(Set(phoneRow.keys) == ["objectId", "deviceType", "deviceToken", "channels", "badge", "createdAt", "updatedAt"])
        #expect(phoneRow["deviceType"] as? String == "ios" && phoneRow["deviceToken"] as? String == "phone-token")
        #expect(phoneRow["channels"] as? [String] == ["alice"] && phoneRow["badge"] as? Int == 3)
        let tabletRow = try #require(devices.rows.first { $0["objectId"] as? String == tabletID })
        #expect(tabletRow["installationId"] as? String == "tablet-install" && tabletRow["registrationId"] as? String == "tablet-fcm")
        #expect(tabletRow["vendor"] as? String == "fcm" && tabletRow["channels"] as? [String] == ["bob", "news"] && tabletRow["badge"] as? Int == 0)
        #expect(tabletRow["deviceToken"] == nil)
        // Queried and read by id like any class.
        let subscribed = try await server.find("_Installation", ["where": #"{"channels":"news"}"#])
        #expect(subscribed.compactMap { $0["objectId"] as? String } == [tabletID])
        #expect(try await server.rest("GET", "/1.1/classes/_Installation/\(phoneID)").1["deviceToken"] as? String == "phone-token")

        let (_, created) = try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "team", "m": ["alice", "bob", "carol"], "c": "alice"])
        let cid = try #require(created["objectId"] as? String)
        let base = "/1.2/rtm/conversations/\(cid)/member-infos"
        let (_, given) = try await server.rest("POST", base, body: ["clientId": "bob", "role": "Manager"])
        let infoID = try #require(given["objectId"] as? String)
        let listed = try #require(try await server.rest("GET", base + "?role=Manager").1["results"] as? [[String: Any]])
        #expect(listed.compactMap { $0["objectId"] as? String } == [infoID])

        let roles = try await Self.walk(server, "_ConversationMemberInfo", limit: 10)
        #expect(roles.ids == [infoID])
        let role = try #require(roles.rows.first)
        #expect(role["cid"] as? String == cid && role["clientId"] as? String == "bob" && role["role"] as? String == "Manager")
        #expect(role["createdAt"] is String && role["updatedAt"] is String)
        // Queried by conversation with the master key, as any class, and counted.
        let (_, ofTeam) = try await server.rest("GET", TestServer.path("/1.1/classes/_ConversationMemberInfo", ["where": #"{"cid":"\#(cid)"}"#, "count": "1"]))
        #expect((ofTeam["results"] as? [[String: Any]])?.compactMap { $0["objectId"] as? String } == [infoID] && ofTeam["count"] as? Int == 1)
        #expect(try await server.rest("GET", "/1.1/classes/_ConversationMemberInfo/\(infoID)").1["clientId"] as? String == "bob")

        let writes: [(String, String)] = [
            ("POST", "/1.1/classes/_Installation"), ("PUT", "/1.1/classes/_Installation/\(phoneID)"), ("DELETE", "/1.1/classes/_Installation/\(phoneID)"),
            ("PUT", "/1.1/classes/_ConversationMemberInfo/\(infoID)"), ("DELETE", "/1.1/classes/_ConversationMemberInfo/\(infoID)"),
        ]
        for (method, path) in writes {
            let (status, answer) = try await server.rest(method, path, body: ["badge": 9, "role": "Member"])
            #expect(status == 403 && answer["code"] as? Int == 119, "\(method) \(path): \(answer)")
        }
        let (batched, results) = try await server.restList("POST", "/1.1/batch", body: ["requests": [["method": "PUT", "path": "/1.1/classes/_Installation/\(phoneID)", "body": ["badge": 9]]]])
        #expect(batched == 200 && (results.first?["error"] as? [String: Any])?["code"] as? Int == 119)
        #expect(try await Self.walk(server, "_Installation", limit: 10).rows.first { $0["objectId"] as? String == phoneID }?["badge"] as? Int == 3)
        #expect(try await Self.walk(server, "_ConversationMemberInfo", limit: 10).ids == [infoID])
        try await server.stop()
    }

    /// Roles of many conversations, walked in small pages: each once, in object id order
    /// (the ids are hashes, so a page gathers them from every conversation), expired
    /// conversations' left out, and an export resuming from an id reads only what follows.
    @Test func rolesOfManyConversationsAreWalkedOnceInObjectIDOrder() async throws {
        let directory = TestServer.temporaryDirectory()
        let now = SystemWallClock().now()
        let expected = try await TestDatabase.withStore(dataDirectory: directory) { store in
            var ids: [String] = []
            for n in 0..<40 {
                let conversation = Conversation(
                    id: Identifiers.conversationID(), kind: n == 0 ? .temporary : .normal, name: nil, creator: "owner", members: ["owner", "m\(n)", "k\(n)", "x"],
                    attributes: [:], uniqueKey: nil, managers: n % 4 == 3 ? [] : ["m\(n)", "k\(n)"], createdAt: Self.base, updatedAt: Self.base + Int64(n),
                    expiresAt: n == 0 ? now - 1000 : nil
                )
                try await store.createConversation(conversation)
                guard n > 0 else { continue }
                ids += conversation.managers.map { Identifiers.memberInfoID(conversationID: conversation.id, clientID: $0) }
            }
            return Self.byteOrder(ids)
        }
        #expect(expected.count == 58)
        let server = try await TestServer.start(dataDirectory: directory)
        for limit in [7, 58, 1000] {
            let walked = try await Self.walk(server, "_ConversationMemberInfo", limit: limit)
            #expect(walked.ids == expected, "pages of \(limit)")
            #expect(walked.rows.allSatisfy { ($0["clientId"] as? String)?.first == "m" || ($0["clientId"] as? String)?.first == "k" })
        }
        let rest = try await Self.walk(server, "_ConversationMemberInfo", limit: 5, where: #"{"objectId":{"$gt":"\#(expected[40])"}}"#)
        #expect(rest.ids == Array(expected[41...]))
        let one = try #require(try await Self.walk(server, "_ConversationMemberInfo", limit: 100).rows.first)
        let cid = try #require(one["cid"] as? String)
        let ofOne = try await Self.walk(server, "_ConversationMemberInfo", limit: 100, where: #"{"cid":"\#(cid)"}"#).rows
        #expect(ofOne.count == 2 && ofOne.allSatisfy { $0["cid"] as? String == cid })
        try await server.stop()
    }

    /// A hook script reads the IM classes through `AV.Query` as through the REST API: a
    /// scan of `_Conversation`, queries of `_ConversationMemberInfo` and `_Installation`.
    @Test func aHookScriptQueriesAndWalksTheIMClasses() async throws {
        let directory = TestServer.temporaryDirectory()
        let store = try SQLiteStore(path: directory + "/switchboard.sqlite")
        for n in 0..<5 {
            try await store.createConversation(Conversation(
                id: "c\(n)", kind: .normal, name: "room \(n)", creator: "alice", members: ["alice", "bob"], attributes: [:], uniqueKey: nil,
                managers: n == 2 ? ["bob"] : [], createdAt: Self.base, updatedAt: Self.base
            ))
        }
        let saved = try await store.saveInstallation(Installation(deviceType: .ios, deviceToken: "phone", channels: ["alice"]), at: SystemWallClock().now())
        let data = LocalAppData(store: store, imClasses: .stored(in: store))
        let report = try await ScriptTrial.run(source: """
            AV.Cloud.onIMMessageReceived(async () => {
              const walk = new AV.Query('_Conversation').scan({ batchSize: 2 });
              const names = [];
              for (let step = await walk.next(); !step.done; step = await walk.next()) names.push(step.value.get('name'));
              const roles = await new AV.Query('_ConversationMemberInfo').equalTo('cid', 'c2').find();
              const devices = await new AV.Query('_Installation').equalTo('channels', 'alice').find();
              const refused = await new AV.Object('_Installation', { deviceType: 'ios' }).save().then(() => 'saved', (e) => e.code);
              return { content: [names.join(','), roles.map((r) => r.get('clientId') + ' ' + r.get('role')).join(), devices.map((d) => d.id + ' ' + d.get('deviceToken')).join(), refused].join('|') };
            });
            """, file: "walk.js", hook: "_messageReceived", paramsJSON: "{}", budget: .seconds(10), services: ScriptServices(data: data))
        #expect(report.outcome == .value(#"{"content":"room 0,room 1,room 2,room 3,room 4|bob Manager|\#(saved.objectID) phone|119"}"#))
    }

    /// A walk of an app class resumed from an id (`objectId` `$gt`/`$gte`, as an export
    /// run again asks) starts there and gives just what follows, in pages.
    @Test func anAppClassWalkResumesFromAnID() async throws {
        let counter = ClassReadCounter(try SQLiteStore(path: TestServer.temporaryDirectory() + "/data.sqlite"))
        let data = LocalAppData(store: counter)
        var ids: [String] = []
        for n in 0..<12 { ids.append(try await data.create(in: "Row", body: ["n": .int(Int64(n)), "even": .bool(n % 2 == 0)], fetchWhenSave: false)["objectId"]?.stringValue ?? "") }
        ids = Self.byteOrder(ids)
        for (condition, from) in [("$gt", 5), ("$gte", 4)] {
            var walked: [String] = [], cursor: String?
            repeat {
                let page = try await data.scan(in: "Row", where: ["objectId": [condition: .string(ids[4])]], scanKey: nil, cursor: cursor, limit: 3)
                walked += page.results.compactMap { $0["objectId"]?.stringValue }
                cursor = page.cursor
            } while cursor != nil
            #expect(walked == Array(ids[from...]), "\(condition)")
            // Past ids[4]: three pages of 3, 3 and 1, none before it.
            if condition == "$gt" { #expect(counter.classPagesRead == 3) }
        }
        let evens = try await data.scan(in: "Row", where: ["$and": [["objectId": ["$gt": .string(ids[0])]], ["even": true]]], scanKey: nil, cursor: nil, limit: 100)
        #expect(evens.results.count == 6 - (try await data.object(in: "Row", id: ids[0], include: [], keys: [])?["even"] == true ? 1 : 0))
    }

    /// PostgreSQL walks conversations and installations byte by byte, where the database
    /// sorts text by a locale's rules (en-US puts `_c` before `-d`, `b2` before `B2`).
    @Test(.enabled(if: TestDatabase.usesPostgres, "needs PostgreSQL"))
    func postgresWalksIDsByteByByte() async throws {
        let url = try #require(try await TestDatabase.url(sortingTextAs: "en-US"))
        let store = try await PostgresStore(url: url, maxConnections: 2, logger: Logger(label: "test-walks"))
        do {
            let ids = ["a1", "B2", "_c", "-d", "Z9", "b2", "0e"]
            for id in ids {
                try await store.createConversation(Conversation(
                    id: id, kind: .normal, name: nil, creator: "o", members: ["o", "m"], attributes: [:], uniqueKey: nil,
                    managers: id == "Z9" ? [] : ["m"], createdAt: Self.base, updatedAt: Self.base
                ))
            }
            var walked: [String] = [], managed: [String] = [], after: String?
            repeat {
                let page = try await store.conversations(after: after, limit: 2)
                walked += page.map(\.id)
                after = page.count == 2 ? page.last?.id : nil
            } while after != nil
            repeat {
                let page = try await store.managedConversations(after: after, limit: 2)
                managed += page.map(\.id)
                after = page.count == 2 ? page.last?.id : nil
            } while after != nil
            #expect(walked == Self.byteOrder(ids))
            #expect(managed == Self.byteOrder(ids.filter { $0 != "Z9" }))
            for token in ["t1", "t2", "t3"] { _ = try await store.saveInstallation(Installation(deviceType: .ios, deviceToken: token), at: SystemWallClock().now()) }
            let first = try await store.installations(after: nil, limit: 2), second = try await store.installations(after: first.last?.objectID, limit: 2)
            let devices = (first + second).map(\.objectID)
            #expect(devices.count == 3 && devices == Self.byteOrder(devices))
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}

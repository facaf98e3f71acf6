import Foundation
import GRDB
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON
import SwitchboardStore
import Testing

/// `ImportStore` on SQLite and PostgreSQL: rows of LeanCloud's export, read by the row types
/// (`ConversationRow`, `MessageRow`, …), come back from the store as they were, and importing
/// again stores nothing twice.
@Suite struct ImportStoreTests {
    typealias Store = any MessageStore & DocumentStore & ImportStore

    private func withStore(_ kind: AppDataStore, _ body: (Store) async throws -> Void) async throws {
        try await TestDatabase.withStore(dataDirectory: TestServer.temporaryDirectory(), postgres: kind == .postgres) { try await body($0) }
    }

    static let created: Int64 = 1_600_000_000_000
    static let iso = ExportFolder.iso

    static let group: JSONValue = [
        "objectId": "5f0000000000000000000001", "name": "Team", "c": "alice", "m": ["alice", "bob", "carol", "dave"], "mu": ["carol"],
        "topic": "plans", "attr": ["color": "red"], "lm": ISODate.object(milliseconds: created + 5000), "ACL": ["*": ["read": true]],
        "createdAt": iso(created), "updatedAt": iso(created + 1000),
    ]

    static func conversation(_ id: String, _ fields: [String: JSONValue] = [:]) -> JSONValue {
        .object(["objectId": .string(id), "c": "alice", "m": ["alice", "bob"], "createdAt": iso(created), "updatedAt": iso(created)].merging(fields) { _, new in new })
    }

    @Test(arguments: AppDataStore.available) func everyFieldOfAConversationComesAcross(_ kind: AppDataStore) async throws {
        try await withStore(kind) { store in
            let rows = [
                Self.group,
                Self.conversation("5f0000000000000000000002", ["unique": true, "uniqueId": "b0c1"]),
                Self.conversation("5f0000000000000000000003", ["tr": true, "m": ["alice"]]),
                Self.conversation("5f0000000000000000000004", ["sys": true, "m": [], "c": .null, "name": "News"]),
                Self.conversation("_tmp:5f0000000000000000000005", ["temp": true, "ttl": 3600]),
            ]
            let conversations = try rows.map(ConversationRow.conversation)
            #expect(try await store.importConversations(conversations) == ImportOutcome(stored: 5))

            let group = try #require(try await store.conversation(id: "5f0000000000000000000001"))
            #expect(group == Conversation(
                id: "5f0000000000000000000001", kind: .normal, name: "Team", creator: "alice", members: ["alice", "bob", "carol", "dave"],
                attributes: ["topic": "plans", "attr": ["color": "red"]], uniqueKey: nil, mutedBy: ["carol"],
                createdAt: Self.created, updatedAt: Self.created + 1000, lastMessageAt: Self.created + 5000
            ))
            #expect(try await store.members(of: group.id, after: nil, limit: 10).map(\.joinedAt) == Array(repeating: Self.created, count: 4))
            let unique = try #require(try await store.conversation(id: "5f0000000000000000000002"))
            #expect(unique.uniqueKey == Conversation.uniqueKey(for: ["bob", "alice"]))
            #expect(try await store.conversation(uniqueKey: Conversation.uniqueKey(for: ["alice", "bob"]))?.id == unique.id)
            #expect(try await store.conversation(id: "5f0000000000000000000003")?.kind == .transient)
            let system = try #require(try await store.conversation(id: "5f0000000000000000000004"))
            #expect(system.kind == .system && system.creator == MessagingCore.serverClientID && system.name == "News")
            let temporary = try #require(try await store.conversation(id: "_tmp:5f0000000000000000000005"))
            #expect(temporary.kind == .temporary && temporary.expiresAt == Self.created + 3_600_000)

            let roles = try [
                ["cid": "5f0000000000000000000001", "clientId": "bob", "role": "Manager"],
                ["cid": "5f0000000000000000000001", "clientId": "carol", "role": "Member"],
                ["cid": "5f0000000000000000000001", "clientId": "alice", "role": "Owner"],
                ["cid": "5f0000000000000000000001", "clientId": "dave", "role": "Owner"],
                ["cid": "5f00000000000000000000ff", "clientId": "bob", "role": "Manager"],
            ].map { try MemberInfoRow.role($0) }
            let roleOutcome = try await store.importRoles(roles)
            #expect(roleOutcome.stored == 1 && roleOutcome.alreadyThere == 2)
            #expect(roleOutcome.skipped.map(\.index) == [3, 4])
            #expect(roleOutcome.skipped.first?.reason == "dave cannot own conversation 5f0000000000000000000001: its creator alice does")
            #expect(roleOutcome.skipped.last?.reason == "no conversation 5f00000000000000000000ff")
            // A member made manager, then made a member again.
            let carol = ImportedRole(conversationID: "5f0000000000000000000001", clientID: "carol", role: .manager)
            #expect(try await store.importRoles([carol]) == ImportOutcome(stored: 1))
            #expect(try await store.conversation(id: group.id)?.managers == ["bob", "carol"])
            #expect(try await store.importRoles([ImportedRole(conversationID: carol.conversationID, clientID: "carol", role: .member)]) == ImportOutcome(stored: 1))
            let lists = try ConversationListsRow.lists(["conv-id": "5f0000000000000000000001", "blocked": ["mallory"], "silenced": ["dave"]])
            #expect(try await store.importLists([lists]) == ImportOutcome(stored: 1))
            let subscriptions = try [
                ["conv-id": "5f0000000000000000000004", "client-id": "alice", "timestamp": 1_700_000_000_000],
                ["conv-id": "5f0000000000000000000004", "client-id": "bob", "timestamp": 1_700_000_000_500],
                ["conv-id": "5f0000000000000000000001", "client-id": "erin", "timestamp": 1_700_000_000_500],
            ].map { try SubscriberRow.subscription($0) }
            let subscribed = try await store.importSubscriptions(subscriptions)
            #expect(subscribed.stored == 2 && subscribed.skipped.map(\.reason) == ["conversation 5f0000000000000000000001 is not a system conversation"])

            let moderated = try #require(try await store.conversation(id: group.id))
            #expect(moderated.managers == ["bob"] && moderated.blocked == ["mallory"] && moderated.silenced == ["dave"])
            #expect(moderated.role(of: "alice") == .owner && moderated.role(of: "carol") == .member)
            #expect(try await store.members(of: system.id, after: nil, limit: 10)
                == [Membership(conversationID: system.id, clientID: "alice", joinedAt: 1_700_000_000_000),
                    Membership(conversationID: system.id, clientID: "bob", joinedAt: 1_700_000_000_500)])

            // All of it again: nothing changes.
            #expect(try await store.importConversations(conversations) == ImportOutcome(alreadyThere: 5))
            #expect(try await store.importRoles(roles).stored == 0)
            #expect(try await store.importLists([lists]) == ImportOutcome(alreadyThere: 1))
            #expect(try await store.importSubscriptions(subscriptions).stored == 0)
            #expect(try await store.conversation(id: group.id) == moderated)
        }
    }

    @Test(arguments: AppDataStore.available) func aNewerVersionReplacesAnOlderOneWhichKeepsItsRolesAndLists(_ kind: AppDataStore) async throws {
        try await withStore(kind) { store in
            _ = try await store.importConversations([try ConversationRow.conversation(Self.group)])
            _ = try await store.importRoles([ImportedRole(conversationID: "5f0000000000000000000001", clientID: "bob", role: .manager)])
            _ = try await store.importLists([ImportedLists(conversationID: "5f0000000000000000000001", blocked: ["mallory"], silenced: [])])
            try await store.markImportedHistoryRead(["5f0000000000000000000001": Self.created + 9000])

            var older = Self.group.objectValue ?? [:]
            older["name"] = "Old name"
            older["updatedAt"] = Self.iso(Self.created + 500)
            #expect(try await store.importConversations([try ConversationRow.conversation(.object(older))]) == ImportOutcome(alreadyThere: 1))
            #expect(try await store.conversation(id: "5f0000000000000000000001")?.name == "Team")

            var newer = Self.group.objectValue ?? [:]
            newer["name"] = "New name"
            newer["m"] = ["alice", "bob", "erin"]
            newer["lm"] = ISODate.object(milliseconds: Self.created + 2000)
            newer["updatedAt"] = Self.iso(Self.created + 8000)
            #expect(try await store.importConversations([try ConversationRow.conversation(.object(newer))]) == ImportOutcome(stored: 1, replaced: 1))
            let replaced = try #require(try await store.conversation(id: "5f0000000000000000000001"))
            #expect(replaced.name == "New name" && replaced.members == ["alice", "bob", "erin"] && replaced.updatedAt == Self.created + 8000)
            // Roles and lists come apart, and the last message time never goes back.
            #expect(replaced.managers == ["bob"] && replaced.blocked == ["mallory"] && replaced.lastMessageAt == Self.created + 9000)
            #expect(try await store.members(of: replaced.id, after: nil, limit: 10).map(\.joinedAt) == [Self.created, Self.created, Self.created + 8000])
        }
    }

    /// Once a conversation changed here (after clients moved), an export's roles, lists and
    /// subscribers of it are older than its own: they stay.
    @Test(arguments: AppDataStore.available) func aConversationChangedHereKeepsItsOwnRolesListsAndSubscribers(_ kind: AppDataStore) async throws {
        try await withStore(kind) { store in
            let system = try ConversationRow.conversation(Self.conversation("5f0000000000000000000004", ["sys": true, "m": []]))
            _ = try await store.importConversations([try ConversationRow.conversation(Self.group), system])
            var group = try #require(try await store.conversation(id: "5f0000000000000000000001"))
            group.managers = ["carol"]
            group.updatedAt = Self.created + 60_000
            try await store.saveConversation(group)
            var changedSystem = try #require(try await store.conversation(id: system.id))
            changedSystem.name = "Renamed here"
            changedSystem.updatedAt = Self.created + 60_000
            try await store.saveConversation(changedSystem)

            #expect(try await store.importRoles([ImportedRole(conversationID: group.id, clientID: "bob", role: .manager)]) == ImportOutcome(alreadyThere: 1))
            #expect(try await store.importLists([ImportedLists(conversationID: group.id, blocked: ["bob"], silenced: ["carol"])]) == ImportOutcome(alreadyThere: 1))
            let late = Membership(conversationID: system.id, clientID: "zoe", joinedAt: 1)
            #expect(try await store.importSubscriptions([late]) == ImportOutcome(alreadyThere: 1))
            #expect(try await store.conversation(id: group.id) == group)
            #expect(try await store.members(of: system.id, after: nil, limit: 10).isEmpty)
        }
    }

    @Test(arguments: AppDataStore.available) func messagesKeepIdsTimesContentAndOrderAreQueuedForNobodyAndCountAsRead(_ kind: AppDataStore) async throws {
        try await withStore(kind) { store in
            let cid = "5f0000000000000000000001"
            _ = try await store.importConversations([try ConversationRow.conversation(Self.group)])
            let bob = DeviceAddress(clientID: "bob", key: "phone")
            try await store.deviceSeen(bob, at: 1)
            let t = Self.created + 10_000
            let rows: [JSONValue] = [
                ["msg-id": "m1", "conv-id": .string(cid), "from": "alice", "timestamp": .int(t), "data": "hello", "bin": false],
                ["msg-id": "m2", "conv-id": .string(cid), "from": "bob", "timestamp": .int(t + 1), "data": #"{"_lctype":-1,"_lctext":"typed"}"#],
                ["msg-id": "m3", "conv-id": .string(cid), "from": "carol", "timestamp": .int(t + 1), "data": "AAEC/w==", "bin": true],
                ["msg-id": "m4", "conv-id": .string(cid), "from": "alice", "timestamp": .int(t + 2), "data": "@bob look",
                 "mention-client-ids": ["bob"], "mention-all": true],
                ["msg-id": "m5", "conv-id": .string(cid), "from": "alice", "timestamp": .int(t + 3), "data": "edited", "patch-timestamp": .int(t + 50)],
                ["msg-id": "m6", "conv-id": .string(cid), "from": "bob", "timestamp": .int(t + 4), "data": "oops", "recall": true,
                 "patch-timestamp": .int(t + 60)],
                ["msg-id": "m7", "conv-id": "_tmp:gone", "from": "bob", "timestamp": .int(t + 5), "data": "lost"],
            ]
            let messages = try rows.map(MessageRow.message)
            let outcome = try await store.importMessages(messages)
            #expect(outcome.stored == 6 && outcome.skipped == [.init(index: 6, reason: "no conversation _tmp:gone")])
            #expect(try await store.importMessages(Array(messages.prefix(2))) == ImportOutcome(alreadyThere: 2))
            try await store.markImportedHistoryRead([cid: t + 4])

            let history = try await store.history(HistoryQuery(scope: .conversation(cid), limit: 10, direction: .older, start: nil, end: nil, messageType: nil))
            #expect(history.map(\.id) == ["m1", "m2", "m3", "m4", "m5", "m6"])
            #expect(history.map(\.timestamp) == [t, t + 1, t + 1, t + 2, t + 3, t + 4])
            #expect(history[1].content.typedMessageType == -1)
            #expect(history[2].content == .binary([0, 1, 2, 255]))
            #expect(history[3].mentionPids == ["bob"] && history[3].mentionAll)
            #expect(history[4].patchTimestamp == t + 50 && history[4].content == .text("edited"))
            #expect(history[5].isRecalled && history[5].patchTimestamp == t + 60)
            // Paging by (timestamp, message id) splits messages of one time where the export had them.
            let page = try await store.history(HistoryQuery(
                scope: .conversation(cid), limit: 10, direction: .older, start: HistoryQuery.Bound(timestamp: t + 1, messageID: "m3"), end: nil, messageType: nil
            ))
            #expect(page.map(\.id) == ["m1", "m2"])

            #expect(try await store.conversation(id: cid)?.lastMessageAt == t + 4)
            #expect(try await store.receiptPositions(conversationID: cid).sorted { $0.clientID < $1.clientID } == ["alice", "bob", "carol", "dave"].map {
                ReceiptPosition(clientID: $0, acknowledgedUpTo: t + 4, readUpTo: t + 4)
            })
            #expect(try await store.unreadSummaries(for: "bob", since: 0, conversationID: nil).isEmpty)
            #expect(try await store.pendingMessages(for: bob, seqs: 0...Int64.max, limit: 100).isEmpty)
            // Positions never go back.
            try await store.markImportedHistoryRead([cid: t])
            #expect(try await store.receiptPositions(conversationID: cid).allSatisfy { $0.readUpTo == t + 4 })
        }
    }

    @Test(arguments: AppDataStore.available) func installationsKeepTheirDevicesChannelsBadgesAndTimes(_ kind: AppDataStore) async throws {
        try await withStore(kind) { store in
            let rows: [JSONValue] = [
                ["objectId": "i1", "deviceType": "ios", "deviceToken": "apns-token", "channels": ["alice"], "badge": 3,
                 "timeZone": "Asia/Shanghai", "createdAt": Self.iso(Self.created), "updatedAt": Self.iso(Self.created + 1)],
                ["objectId": "i2", "deviceType": "android", "installationId": "android-id", "vendor": "fcm", "registrationId": "fcm-token",
                 "channels": ["bob", "news"], "createdAt": Self.iso(Self.created), "updatedAt": Self.iso(Self.created + 2)],
                ["objectId": "i4", "deviceType": "android", "installationId": "xiaomi-id", "vendor": "mi", "registrationId": "mi-token",
                 "deviceProfile": "second-app", "channels": ["carol"], "createdAt": Self.iso(Self.created)],
            ]
            let installations = try rows.map(InstallationRow.installation)
            #expect(try await store.importInstallations(installations) == ImportOutcome(stored: 3))
            #expect(try await store.installation(objectID: "i1") == SavedInstallation(
                objectID: "i1", installation: Installation(deviceType: .ios, deviceToken: "apns-token", channels: ["alice"]), badge: 3,
                createdAt: Self.created, updatedAt: Self.created + 1
            ))
            #expect(try await store.installation(objectID: "i2")?.installation == Installation(
                deviceType: .android, installationID: "android-id", registrationID: "fcm-token", vendor: "fcm", channels: ["bob", "news"]
            ))
            #expect(try await store.pushDevices(of: ["alice", "bob", "carol"]) == [
                "alice": [PushDevice(token: "apns-token", service: .apns)],
                "bob": [PushDevice(token: "fcm-token", service: .fcm)],
                "carol": [PushDevice(token: "mi-token", service: .xiaomi, profile: "second-app")],
            ])

            #expect(try await store.importInstallations(installations) == ImportOutcome(alreadyThere: 3))
            var newer = installations[1]
            newer.installation.channels = ["bob"]
            newer.badge = 7
            newer.updatedAt += 10
            #expect(try await store.importInstallations([newer]) == ImportOutcome(stored: 1, replaced: 1))
            #expect(try await store.installation(objectID: "i2") == newer)
            // The same phone, saved here since under another object id: what it saved stays.
            var again = installations[0]
            again.objectID = "i3"
            #expect(try await store.importInstallations([again]) == ImportOutcome(alreadyThere: 1))
            #expect(try await store.installation(objectID: "i3") == nil)
        }
    }

    @Test(arguments: AppDataStore.available) func aUniqueKeyAnotherConversationHoldsIsLeftOutWithANote(_ kind: AppDataStore) async throws {
        try await withStore(kind) { store in
            let first = try ConversationRow.conversation(Self.conversation("5f0000000000000000000002", ["unique": true]))
            let second = try ConversationRow.conversation(Self.conversation("5f0000000000000000000003", ["unique": true, "m": ["bob", "alice"]]))
            let outcome = try await store.importConversations([first, second])
            #expect(outcome.stored == 2)
            #expect(outcome.notes == [.init(index: 1, reason: "stored as not unique: conversation 5f0000000000000000000002 of the same members is the unique one")])
            #expect(try await store.conversation(id: second.id)?.uniqueKey == nil)
        }
    }
}

/// SQLite's history index around a large import (`HistoryIndex`).
@Suite struct ImportHistoryIndexTests {
    private static func indexed(_ path: String) throws -> Bool {
        try DatabaseQueue(path: path).read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'message_by_conversation_time')") ?? false
        }
    }

    @Test func aLargeImportSetsTheIndexAsideAndBuildsItAgain() async throws {
        let path = TestServer.temporaryDirectory() + "/switchboard.sqlite"
        let store = try SQLiteStore(path: path)
        try await store.startImportingMessages(expected: 0)
        #expect(try !Self.indexed(path))
        try await store.finishImportingMessages()
        #expect(try Self.indexed(path))
    }

    @Test func aStoreHoldingMoreThanTheImportBringsKeepsItsIndex() async throws {
        let path = TestServer.temporaryDirectory() + "/switchboard.sqlite"
        let store = try SQLiteStore(path: path)
        let cid = "5f0000000000000000000001"
        _ = try await store.importConversations([try ConversationRow.conversation(ImportStoreTests.conversation(cid))])
        let messages = (0..<3).map { Message(id: "m\($0)", conversationID: cid, from: "alice", content: .text("hi"), timestamp: ImportStoreTests.created + Int64($0)) }
        _ = try await store.importMessages(messages)
        try await store.startImportingMessages(expected: 2)
        #expect(try Self.indexed(path))
        try await store.startImportingMessages(expected: 3)
        #expect(try !Self.indexed(path))
    }

    /// An import killed while the index was aside leaves a store that builds it when opened.
    @Test func aStoreOpenedWithItsIndexAsideBuildsIt() async throws {
        let path = TestServer.temporaryDirectory() + "/switchboard.sqlite"
        try await SQLiteStore(path: path).startImportingMessages(expected: 0)
        #expect(try !Self.indexed(path))
        _ = try SQLiteStore(path: path)
        #expect(try Self.indexed(path))
    }
}

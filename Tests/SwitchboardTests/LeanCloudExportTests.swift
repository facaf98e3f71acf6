import Foundation
import Synchronization
import SwitchboardJSON
import Testing

/// `switchboard leancloud export` against a real Switchboard over loopback, filled through
/// its REST API, and against a fake LeanStorage for what a Switchboard does not answer
/// (429, 503, a refusal at the first request).
extension ConfigAndCLITests {
    @Test func anExportHoldsWhatWasPutIn() async throws {
        let server = try await TestServer.start()
        let app = try await ExportedApp.fill(server, objects: 12, messages: 25)
        let folder = TestServer.temporaryDirectory() + "/export"
        let run = try await Self.switchboard(ExportedApp.exportArguments(server, folder) + ["--page-size", "5"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("finished"), "\(run.output)")

        let manifest = try ExportedApp.manifest(folder)
        #expect(manifest["format"] == "switchboard-leancloud-export")
        #expect(manifest["runs"]?.arrayValue?.count == 1)
        #expect(manifest["runs"]?.arrayValue?.first?["finished"]?.stringValue != nil)
        try app.expectExported(in: folder)
        // Each file as long as the manifest records.
        for (file, length) in manifest["state"]?["files"]?.objectValue ?? [:] {
            let size = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.size] as? Int
            #expect(size == length.int64Value.map(Int.init), "\(file)")
        }
        try await server.stop()
    }

    @Test func anExportKilledMidwayAndRunAgainHasEveryItemOnce() async throws {
        let server = try await TestServer.start()
        let app = try await ExportedApp.fill(server, objects: 30, messages: 60)
        let folder = TestServer.temporaryDirectory() + "/export"
        // Slow and in small pages, so that the kills land inside a pass.
        let arguments = ExportedApp.exportArguments(server, folder, rate: 25) + ["--page-size", "3"]
        let inClasses = try await ExportedApp.interrupted(arguments, folder: folder) { state in
            state["classes"]?.arrayValue?.contains { ($0["count"]?.int64Value ?? 0) > 0 } == true
        }
        #expect(inClasses.sent && inClasses.ending == .uncaughtSignal, "the first run was to be killed while walking the classes")
        // As if it was killed between writing a page and recording it: what follows the
        // recorded lengths goes when the export is taken up again.
        for file in try ExportedApp.lineCounts(folder).keys {
            let handle = try #require(FileHandle(forWritingAtPath: folder + "/" + file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"objectId":"half a line"#.utf8))
            try handle.close()
        }
        // Ctrl-C: the run saves, says so and stops.
        let inLists = try await ExportedApp.interrupted(arguments, folder: folder, with: SIGINT) { state in
            (state["conversations"]?["visited"]?.int64Value ?? 0) > 0
        }
        #expect(inLists.sent && inLists.ending == .exit && inLists.status == 130, "\(inLists.output)")
        #expect(inLists.output.contains("interrupted after") && inLists.output.contains("the same command goes on from there"), "\(inLists.output)")
        let inMessages = try await ExportedApp.interrupted(arguments, folder: folder) { state in
            (state["messages"]?["inFile"]?.int64Value ?? 0) > 0
        }
        #expect(inMessages.sent && inMessages.ending == .uncaughtSignal, "the third run was to be killed while reading messages")
        let last = try await Self.switchboard(arguments)
        #expect(last.status == 0, "\(last.output)")
        let runs = try ExportedApp.manifest(folder)["runs"]?.arrayValue ?? []
        #expect(runs.count == 1 && runs[0]["finished"]?.stringValue != nil, "one run, taken up three times, then finished")
        try app.expectExported(in: folder)
        try await server.stop()
    }

    @Test func aSecondRunFetchesOnlyWhatChanged() async throws {
        let server = try await TestServer.start()
        var app = try await ExportedApp.fill(server, objects: 6, messages: 8)
        let folder = TestServer.temporaryDirectory() + "/export"
        let arguments = ExportedApp.exportArguments(server, folder) + ["--skew", "0"]
        // The first run leaves Settings out; the second takes every class.
        #expect(try await Self.switchboard(arguments + ["--class", "Blacklist"]).status == 0)
        let firstLines = try ExportedApp.lineCounts(folder)
        #expect(firstLines["classes/Settings.jsonl"] == nil)

        // One object changed, one new; a new conversation with a blocked client, and messages in it.
        let changed = app.objects["Blacklist"]![2]
        #expect(try await server.rest("PUT", "/1.1/classes/Blacklist/\(changed)", body: ["owner": "changed"]).0 == 200)
        let added = try #require(try await server.rest("POST", "/1.1/classes/Blacklist", body: ["owner": "new"]).1["objectId"] as? String)
        app.objects["Blacklist"]!.append(added)
        let later = try await app.conversation(server, name: "later", members: ["alice", "bob"], blocked: ["mallory"], silenced: [])
        let newMessages = try await app.send(server, count: 4, in: later)
        let second = try await Self.switchboard(arguments)
        #expect(second.status == 0, "\(second.output)")

        let lines = try ExportedApp.lineCounts(folder)
        #expect(lines["classes/Blacklist.jsonl"] == firstLines["classes/Blacklist.jsonl"]! + 2)
        #expect(lines["classes/_Conversation.jsonl"] == firstLines["classes/_Conversation.jsonl"]! + 1)
        #expect(lines["conversations/lists.jsonl"] == firstLines["conversations/lists.jsonl"]! + 1)
        // A class no run exported before comes whole, however long ago its objects changed.
        #expect(lines["classes/Settings.jsonl"] == app.objects["Settings"]?.count)
        #expect(lines["conversations/subscribers.jsonl"] == firstLines["conversations/subscribers.jsonl"])
        let messages = try ExportedApp.messages(folder)
        #expect(Set(messages.suffix(4)) == Set(newMessages) && messages.count == app.messages.count)
        let blacklist = try ExportedApp.lines(folder, "classes/Blacklist.jsonl")
        #expect(blacklist.last { $0["objectId"]?.stringValue == changed }?["owner"] == "changed")
        let runs = try ExportedApp.manifest(folder)["runs"]?.arrayValue ?? []
        #expect(runs.count == 2 && runs[1]["since"] == runs[0]["started"])
        try await server.stop()
    }

    @Test func tooManyRequestsAndUnavailableAreWaitedOutAndTriedAgain() async throws {
        let fake = try await FakeLeanStorage.start()
        let answered = Mutex(0)
        fake.answering { seen in
            let number = answered.withLock { count in
                count += 1
                return count
            }
            switch number {
            case 1: return (429, #"{"code":429,"error":"Too many requests."}"#)
            case 2: return (503, #"{"code":503,"error":"The app is temporarily disabled/readonly."}"#)
            default: return (200, seen.path == "/1.2/rtm/messages" ? "[]" : #"{"results":[],"cursor":null}"#)
            }
        }
        fake.retryAfter.withLock { $0 = "1" }
        let folder = TestServer.temporaryDirectory() + "/export"
        let run = try await Self.switchboard([
            "leancloud", "export", "--server", fake.url.absoluteString, "--app-id", "app", "--master-key", "key", "--out", folder, "--class", "Blacklist",
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("retries 2"), "\(run.output)")
        let requests = fake.requests
        #expect(requests.prefix(3).map(\.path) == Array(repeating: "/1.1/scan/classes/_Conversation", count: 3))
        #expect(Set(requests.map(\.path)).isSuperset(of: ["/1.1/scan/classes/Blacklist", "/1.2/rtm/messages"]))
        #expect(requests.allSatisfy { $0.headers["x-lc-id"] == "app" && $0.headers["x-lc-sign"]?.hasSuffix(",master") == true })
        await fake.stop()
    }

    @Test func aServerThatCannotBeReachedIsTriedUntilRetryForThenGivenUpOn() async throws {
        // Nothing listens on port 1: each try is refused at once.
        let folder = TestServer.temporaryDirectory() + "/export"
        let run = try await Self.switchboard([
            "leancloud", "export", "--server", "http://127.0.0.1:1", "--app-id", "app", "--master-key", "k", "--out", folder, "--retry-for", "2",
        ])
        #expect(run.status == 1)
        #expect(run.output.contains("gave up on GET /1.1/schemas after 3 tries"), "\(run.output)")
        #expect(run.output.contains("cannot be reached") && run.output.contains("Run the same command again later"), "\(run.output)")
    }

    @Test func aWrongMasterKeyStopsAtTheFirstRequestWithLeanCloudsCode() async throws {
        let server = try await TestServer.start()
        let folder = TestServer.temporaryDirectory() + "/export"
        var arguments = ExportedApp.exportArguments(server, folder)
        arguments[arguments.firstIndex(of: "--master-key")! + 1] = "wrong"
        let run = try await Self.switchboard(arguments)
        #expect(run.status == 1)
        #expect(run.output.contains("401 Unauthorized. (HTTP 401)"), "\(run.output)")
        try await server.stop()

        let fake = try await FakeLeanStorage.start()
        fake.answering { _ in (401, #"{"code":401,"error":"Unauthorized."}"#) }
        let refused = try await Self.switchboard(["leancloud", "export", "--server", fake.url.absoluteString, "--app-id", "app", "--master-key", "k", "--out", folder + "2"])
        #expect(refused.status == 1 && refused.output.contains("refused GET /1.1/schemas: 401 Unauthorized."), "\(refused.output)")
        #expect(fake.requests.count == 1)
        await fake.stop()
    }

    @Test func aFolderOfOtherFilesOrAnotherAppsExportIsRefused() async throws {
        let server = try await TestServer.start()
        let folder = TestServer.temporaryDirectory() + "/export"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "keep me\n".write(toFile: folder + "/_User.jsonl", atomically: true, encoding: .utf8)
        let other = try await Self.switchboard(ExportedApp.exportArguments(server, folder))
        #expect(other.status == 1 && other.output.contains("holds files but no export manifest"), "\(other.output)")
        #expect(try String(contentsOfFile: folder + "/_User.jsonl", encoding: .utf8) == "keep me\n")

        let exported = TestServer.temporaryDirectory() + "/export"
        #expect(try await Self.switchboard(ExportedApp.exportArguments(server, exported)).status == 0)
        var arguments = ExportedApp.exportArguments(server, exported)
        arguments[arguments.firstIndex(of: "--app-id")! + 1] = "another-app"
        let another = try await Self.switchboard(arguments)
        #expect(another.status == 1 && another.output.contains("holds the export of app \(server.config.appID)"), "\(another.output)")
        try await server.stop()
    }
}

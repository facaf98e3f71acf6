import Foundation
import SwitchboardData
import SwitchboardJSON
import SwitchboardStore
import Testing

/// `switchboard leancloud import`: LeanCloud's export files into the app data store.
extension ConfigAndCLITests {
    @Test(.disabled(if: TestDatabase.usesPostgres, "the config names SQLite's folder")) func exportedClassesAreImportedOnceWithTheirIDs() async throws {
        let folder = TestServer.temporaryDirectory()
        let export = folder + "/export"
        try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
        try """
            {"objectId":"5cc6abe117b54d7448151efc","createdAt":"2019-04-29T07:46:41.687Z","updatedAt":"2020-11-04T03:29:17.441Z","owner":"bob","blocked":["mallory"]}
            {"objectId":"5cc6abe117b54d7448151efd","owner":"ann",
            {"objectId":"5cc6abe117b54d7448151efe","owner":"eve","blocked":[]}
            """.write(toFile: export + "/Blacklist.jsonl", atomically: true, encoding: .utf8)
        try #"[{"objectId":"s1","nickname":"Bob"},{"objectId":"s2","bad key":1}]"#.write(toFile: export + "/Settings.json", atomically: true, encoding: .utf8)
        try #"{"objectId":"c1","m":["bob"]}"#.write(toFile: export + "/_Conversation.jsonl", atomically: true, encoding: .utf8)
        try "storage: { dataDir: \(folder) }\n".write(toFile: folder + "/config.yaml", atomically: true, encoding: .utf8)

        let dry = try await Self.switchboard(["leancloud", "import", export, "--dry-run", "-c", folder + "/config.yaml"])
        #expect(dry.output.contains("Blacklist: 2 read, nothing stored (dry run), 1 unreadable"), "\(dry.output)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/switchboard.sqlite"))
        let first = try await Self.switchboard(["leancloud", "import", export, "-c", folder + "/config.yaml"])
        #expect(first.output.contains("Blacklist: 2 read, 2 stored, 0 already there, 1 unreadable"), "\(first.output)")
        #expect(first.output.contains("Blacklist.jsonl:2: skipped: not valid JSON"), "\(first.output)")
        #expect(first.output.contains("Settings.json: item 2: skipped: Invalid key name"), "\(first.output)")
        #expect(first.output.contains("_Conversation.jsonl:1: skipped: createdAt is missing"), "\(first.output)")
        #expect(first.status != 0)
        let again = try await Self.switchboard(["leancloud", "import", export + "/Blacklist.jsonl", "-c", folder + "/config.yaml"])
        #expect(again.output.contains("Blacklist: 2 read, 0 stored, 2 already there"), "\(again.output)")

        let store = try SQLiteStore(path: folder + "/switchboard.sqlite")
        let data = LocalAppData(store: store)
        let bob = try #require(try await data.find(ObjectQuery(className: "Blacklist", whereDocument: ["blocked": "mallory"])).results.first)
        #expect(bob["objectId"] == "5cc6abe117b54d7448151efc")
        #expect(bob["createdAt"] == "2019-04-29T07:46:41.687Z")
        #expect(bob["updatedAt"] == "2020-11-04T03:29:17.441Z")
        #expect(try await data.find(ObjectQuery(className: "Blacklist")).results.count == 2)
        #expect(try await data.object(in: "Settings", id: "s1", include: [], keys: [])?["nickname"] == "Bob")
    }
}

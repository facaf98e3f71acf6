import Foundation
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON
import SwitchboardStore
import Testing

/// `switchboard leancloud import` of the archives LeanCloud's export comes in.
extension ConfigAndCLITests {
    private static let header = #"#filetype:JSON-streaming {"type":"Class","class":"Blacklist"}"#

    private func configuredFolder() throws -> String {
        let folder = TestServer.temporaryDirectory()
        try "storage: { dataDir: \(folder) }\n".write(toFile: folder + "/config.yaml", atomically: true, encoding: .utf8)
        return folder
    }

    private func objects(_ className: String, in folder: String) async throws -> [JSONValue] {
        let data = LocalAppData(store: try SQLiteStore(path: folder + "/switchboard.sqlite"))
        return try await data.find(ObjectQuery(className: className, limit: 1000)).results
    }

    @Test(.disabled(if: TestDatabase.usesPostgres, "the config names SQLite's folder")) func aZipOfExportFilesIsImportedAndItsDamagedEntryLeftOut() async throws {
        let folder = try configuredFolder()
        let zip = folder + "/export.zip"
        try await PythonScript.zip(zip, [
            ("export/", ""),
            ("export/Blacklist.0.jsonl", Self.header + "\n" + #"{"objectId":"b1","owner":"bob"}"# + "\n" + #"{"objectId":"b2","owner":"ann"}"# + "\n"),
            ("export/Blacklist.1.jsonl", Self.header + "\n" + #"{"objectId":"b3","owner":"eve"}"# + "\n"),
            ("export/Broken.jsonl", #"{"objectId":"x1","text":"a row of the entry damaged below"}"# + "\n" + #"{"objectId":"x2"}"#),
            ("export/_Join:users:_Role.0.jsonl", #"{"owningId":"r1","relatedId":"u1"}"#),
            ("Comment/part-00000", #"{"objectId":"c1"}"# + "\n" + #"{"objectId":"c2"}"#),
            ("__MACOSX/export/._Blacklist.0.jsonl", "resource fork"),
            ("export/readme.txt", "not data"),
        ], stored: ["export/Broken.jsonl"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        let broken = try #require(bytes.firstRange(of: Data("a row of the entry damaged below".utf8)))
        bytes[broken.lowerBound] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: zip))

        let run = try await Self.switchboard(["leancloud", "import", zip, "-c", folder + "/config.yaml"])
        #expect(run.output.contains("export.zip/export/Blacklist.0.jsonl: Blacklist: 2 read, 2 stored, 0 already there"), "\(run.output)")
        #expect(run.output.contains("export.zip/export/Blacklist.1.jsonl: Blacklist: 1 read, 1 stored"), "\(run.output)")
        #expect(run.output.contains("export.zip/Comment/part-00000: Comment: 2 read, 2 stored"), "\(run.output)")
        #expect(run.output.contains("export.zip/export/Broken.jsonl: not imported: damaged: its CRC-32 does not match its header's"), "\(run.output)")
        #expect(run.output.contains("export.zip/export/_Join:users:_Role.0.jsonl: skipped: a Relation's table"), "\(run.output)")
        #expect(!run.output.contains("__MACOSX") && !run.output.contains("readme"), "\(run.output)")
        #expect(run.status != 0)
        #expect(try await objects("Blacklist", in: folder).compactMap { $0["objectId"]?.stringValue }.sorted() == ["b1", "b2", "b3"])
        #expect(try await objects("Comment", in: folder).count == 2)
        #expect(try await objects("Broken", in: folder).isEmpty)

        let again = try await Self.switchboard(["leancloud", "import", zip, "-c", folder + "/config.yaml"])
        #expect(again.output.contains("export.zip/export/Blacklist.0.jsonl: Blacklist: 2 read, 0 stored, 2 already there"), "\(again.output)")
    }

    @Test(.disabled(if: TestDatabase.usesPostgres, "the config names SQLite's folder")) func aTarGzCutShortImportsTheEntriesBeforeTheCut() async throws {
        let folder = try configuredFolder()
        let tarball = folder + "/APPID-export0vaDyw6z2235289001363510.tar.gz"
        let rows = (0..<20_000).map { #"{"objectId":"m\#($0)","text":"\#(UUID().uuidString)"}"# }.joined(separator: "\n")
        try await PythonScript.tarGz(tarball, [
            ("Blacklist.0.jsonl", Self.header + "\n" + #"{"objectId":"b1"}"#),
            ("Settings.0.jsonl", #"{"objectId":"s1"}"#),
            ("Messages.0.jsonl", rows),
        ])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tarball))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: tarball))

        let run = try await Self.switchboard(["leancloud", "import", tarball, "-c", folder + "/config.yaml"])
        let name = "APPID-export0vaDyw6z2235289001363510.tar.gz"
        #expect(run.output.contains("\(name): damaged: nothing after Messages.0.jsonl can be read"), "\(run.output)")
        #expect(run.output.contains("\(name)/Blacklist.0.jsonl: Blacklist: 1 read, 1 stored"), "\(run.output)")
        #expect(run.output.contains("\(name)/Settings.0.jsonl: Settings: 1 read, 1 stored"), "\(run.output)")
        #expect(run.output.contains("\(name)/Messages.0.jsonl: not imported: the compressed data ends early (cut short?)"), "\(run.output)")
        #expect(run.status != 0)
        #expect(try await objects("Blacklist", in: folder).count == 1)
        #expect(try await objects("Settings", in: folder).count == 1)
        #expect(try await objects("Messages", in: folder).isEmpty)
    }

    /// LeanCloud's data export as it comes: a .tar.gz of `<Class>.0.jsonl` files, each behind
    /// its `#filetype` line; its IM classes go to the IM store, in the import's order (the
    /// archive is read again from its start for them), the others to the app data store.
    @Test func theConsolesTarGzBringsTheIMClassesAcross() async throws {
        let folder = TestServer.temporaryDirectory()
        let config = try await Self.importConfig(for: folder)
        let created = ExportFolder.iso(Self.movedAt)
        func file(_ className: String, _ rows: [JSONValue]) -> (String, String) {
            ("\(className).0.jsonl", ([#"#filetype:JSON-streaming {"type":"Class","class":"\#(className)"}"#] + rows.map(\.jsonString)).joined(separator: "\n"))
        }
        let tarball = folder + "/APPID-export0vaDyw6z2235289001363510.tar.gz"
        try await PythonScript.tarGz(tarball, [
            file("Blacklist", [["objectId": "b1", "owner": "ann", "createdAt": created, "updatedAt": created]]),
            file("_Installation", [["objectId": "i1", "deviceType": "android", "installationId": "ben-phone", "channels": ["ben"], "createdAt": created]]),
            file("_ConversationMemberInfo", [["cid": "5f00000000000000000000c1", "clientId": "ben", "role": "Manager", "objectId": "r1"]]),
            file("_Conversation", [["objectId": "5f00000000000000000000c1", "c": "ann", "m": ["ann", "ben"], "createdAt": created, "updatedAt": created]]),
        ])
        let run = try await Self.switchboard(["leancloud", "import", tarball, "-c", config])
        let name = "APPID-export0vaDyw6z2235289001363510.tar.gz"
        for expected in [
            "\(name)/_Conversation.0.jsonl: _Conversation: 1 read, 1 stored",
            "\(name)/_ConversationMemberInfo.0.jsonl: _ConversationMemberInfo: 1 read, 1 stored",
            "\(name)/_Installation.0.jsonl: _Installation: 1 read, 1 stored",
            "\(name)/Blacklist.0.jsonl: Blacklist: 1 read, 1 stored",
        ] {
            #expect(run.output.contains(expected), "\(expected)\nnot in\n\(run.output)")
        }
        #expect(run.status == 0, "\(run.output)")
        try await TestDatabase.withStore(dataDirectory: folder) { (store) async throws in
            #expect(try await store.conversation(id: "5f00000000000000000000c1")?.managers == ["ben"])
            #expect(try await store.installation(objectID: "i1")?.installation.channels == ["ben"])
        }
    }

    /// An export unpacked into a folder: its files found in the folders under it, hidden ones left alone.
    @Test(.disabled(if: TestDatabase.usesPostgres, "the config names SQLite's folder")) func anUnpackedExportFolderIsWalkedWhole() async throws {
        let folder = try configuredFolder()
        let export = folder + "/unpacked"
        for sub in ["/APPID-export1/Comment", "/.trash"] {
            try FileManager.default.createDirectory(atPath: export + sub, withIntermediateDirectories: true)
        }
        try (Self.header + "\n" + #"{"objectId":"b1"}"#).write(toFile: export + "/APPID-export1/Blacklist.0.jsonl", atomically: true, encoding: .utf8)
        try #"{"objectId":"c1"}"#.write(toFile: export + "/APPID-export1/Comment/part-00000", atomically: true, encoding: .utf8)
        try #"{"objectId":"t1"}"#.write(toFile: export + "/.trash/Blacklist.jsonl", atomically: true, encoding: .utf8)
        let run = try await Self.switchboard(["leancloud", "import", export, "-c", folder + "/config.yaml"])
        #expect(run.output.contains("unpacked/APPID-export1/Blacklist.0.jsonl: Blacklist: 1 read, 1 stored"), "\(run.output)")
        #expect(run.output.contains("unpacked/APPID-export1/Comment/part-00000: Comment: 1 read, 1 stored"), "\(run.output)")
        #expect(!run.output.contains(".trash"), "\(run.output)")
        #expect(run.status == 0)
        #expect(try await objects("Blacklist", in: folder).count == 1)
    }

    /// An entry of 150 MB of rows goes through in far less memory than it takes: the CLI's
    /// peak resident size (`VmHWM`, which only grows) is read while it runs.
    @Test func aLargeArchiveIsReadInFlatMemory() async throws {
        let folder = try configuredFolder()
        try await PythonScript.run("""
            import sys, tarfile
            count = 1_200_000
            line = lambda i: b'{"objectId":"%08d","text":"' % i + b"y" * 95 + b'"}\\n'
            class Rows:
                def __init__(self): self.n = 0; self.pending = b""
                def read(self, size=-1):
                    while len(self.pending) < size and self.n < count:
                        self.pending += b"".join(line(i) for i in range(self.n, min(count, self.n + 1000)))
                        self.n = min(count, self.n + 1000)
                    out, self.pending = self.pending[:size], self.pending[size:]
                    return out
            with tarfile.open(sys.argv[1], "w:gz", compresslevel=1) as t:
                info = tarfile.TarInfo("Big.0.jsonl"); info.size = len(line(0)) * count
                t.addfile(info, Rows())
            """, [folder + "/big.tar.gz"])
        let (output, status, peak) = try await Self.switchboardPeakMemory(["leancloud", "import", folder + "/big.tar.gz", "--dry-run", "-c", folder + "/config.yaml"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("big.tar.gz/Big.0.jsonl: Big: 1200000 read, nothing stored (dry run)"), "\(output)")
        #expect(peak > 0 && peak < 80_000_000, "the import's resident size peaked at \(peak / 1_000_000) MB for an entry of 150 MB")
    }

    /// Runs the CLI as `switchboard` does, reading its peak resident size as it runs.
    private static func switchboardPeakMemory(_ arguments: [String]) async throws -> (output: String, status: Int32, peakBytes: Int) {
        let output = TestServer.temporaryDirectory() + "/switchboard.out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let (ended, ending) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { ending.yield($0.terminationStatus); ending.finish() }
        try process.run()
        var peak = 0
        while process.isRunning {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            peak = max(peak, (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024)
            try await Task.sleep(for: .milliseconds(20))
        }
        var status: Int32 = -1
        for await code in ended { status = code }
        return (try String(contentsOfFile: output, encoding: .utf8), status, peak)
    }
}

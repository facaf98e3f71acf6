import Foundation
import GRDB
import SwitchboardWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The data folder on a small file system of its own (tmpfs; needs root to mount).
@Suite(.storeBlind, .enabled(if: getuid() == 0, "mounting a small file system needs root"))
struct DiskFullTests {
    private let text = String(repeating: "y", count: 1000)

    private func mountSmallFileSystem(megabytes: Int) throws -> String {
        let path = TestServer.temporaryDirectory()
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw TestClient.Timeout(description: "cannot mount tmpfs at \(path)") }
        return path
    }

    /// Lazily: whatever still holds a file there (a server a failed test did not stop, a
    /// database closing late) would leave the file system busy, and mounted for good.
    private func unmount(_ path: String) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = ["--lazy", path]
        try? umount.run()
        umount.waitUntilExit()
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Leaves about 1.5 MB free beside the data folder with a file of its own, then sends
    /// until five sends are refused. Returns the filler's path and how many were acknowledged.
    private func fillTheDisk(_ folder: String, as client: TestClient, cid: String) async throws -> (filler: String, acknowledged: Int) {
        var stats = statvfs()
        statvfs(folder, &stats)
        let free = Int(stats.f_bavail) * Int(stats.f_frsize)
        let filler = folder + "/filler"
        FileManager.default.createFile(atPath: filler, contents: Data(count: max(free - 1_500_000, 0)))
        var acknowledged = 0
        var refused = 0
        for _ in 0..<3000 {
            let reply = try await client.request(.text(text, cid: cid))
            if reply.ackMessage.hasCode { refused += 1; if refused >= 5 { break } } else { acknowledged += 1 }
        }
        #expect(refused > 0, "the disk never filled")
        return (filler, acknowledged)
    }

    /// A server with its data on `folder`, and alice logged in with a conversation.
    private func startServer(in folder: String) async throws -> (TestServer, TestClient, cid: String) {
        let server = try await TestServer.start(dataDirectory: folder + "/data")
        let alice = try await server.login("alice")
        return (server, alice, try await alice.startConversation(members: ["bob"]))
    }

    @Test(.disabled(if: TestDatabase.usesPostgres, "SQLite's disk")) func sendsWorkAgainOnceSpaceIsFreedAndTheLogDoesNotKeepIt() async throws {
        let folder = try mountSmallFileSystem(megabytes: 8)
        defer { unmount(folder) }
        let (server, alice, cid) = try await startServer(in: folder)
        let (filler, acknowledged) = try await fillTheDisk(folder, as: alice, cid: cid)
        let logWhenFull = fileSize(server.config.databasePath + "-wal")
        try FileManager.default.removeItem(atPath: filler)
        // The first write after the space comes back empties the log into the database.
        try await alice.sendText(text, cid: cid)
        let logAfterFreeing = fileSize(server.config.databasePath + "-wal")
        #expect(logAfterFreeing < logWhenFull / 2, "write-ahead log \(logAfterFreeing) bytes, \(logWhenFull) when the disk was full")

        var failedAfterFreeing = 0
        for _ in 0..<2000 {
            if try await alice.request(.text(text, cid: cid)).ackMessage.hasCode { failedAfterFreeing += 1 }
        }
        #expect(failedAfterFreeing == 0)
        // Nothing acknowledged was lost.
        let history = try await alice.request(.logs(cid: cid, limit: 1000))
        #expect(history.logsMessage.logs.count == min(1000, acknowledged + 2001))
        try await server.stop()
    }

    /// A reader on an older snapshot keeps the log from being emptied: sends go on all the
    /// same once there is room, and the log is emptied once the reader is done.
    @Test(.disabled(if: TestDatabase.usesPostgres, "SQLite's disk")) func sendsWorkAgainWhileALongReadHoldsTheLog() async throws {
        let folder = try mountSmallFileSystem(megabytes: 8)
        defer { unmount(folder) }
        let (server, alice, cid) = try await startServer(in: folder)
        var reader: DatabaseSnapshot? = try DatabasePool(path: server.config.databasePath).makeSnapshot()
        let (filler, _) = try await fillTheDisk(folder, as: alice, cid: cid)
        let logWhenFull = fileSize(server.config.databasePath + "-wal")
        try FileManager.default.removeItem(atPath: filler)

        // Each write waited out the busy timeout behind the reader (5 s), and failed.
        try await alice.sendText(text, cid: cid)
        #expect(try await reader?.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM message") } == 0)
        reader = nil
        try await alice.sendText(text, cid: cid)
        let logAfterReading = fileSize(server.config.databasePath + "-wal")
        #expect(logAfterReading < logWhenFull / 2, "write-ahead log \(logAfterReading) bytes, \(logWhenFull) when the disk was full")
        try await server.stop()
    }
}

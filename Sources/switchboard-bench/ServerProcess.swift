import Foundation
import Logging
import SwitchboardServer

/// A Switchboard server in a child process (this executable, started with `argument`), so
/// that what it costs, CPU time and memory, is read from /proc apart from the benchmark's
/// own clients. Its script hosts are its children and their CPU time counts as its own.
///
/// The child serves `directory`: scripts in `directory/hooks`, and the keyword filter on
/// when `directory/keywords.txt` exists.
final class ServerProcess {
    static let argument = "--bench-server"
    /// The database the servers use instead of SQLite, and that several nodes share.
    static let postgresURL = ProcessInfo.processInfo.environment["SWITCHBOARD_BENCH_POSTGRES_URL"]
    static var usesPostgres: Bool { postgresURL != nil }

    let port: Int
    private let process: Process
    /// The child's standard input: it ends when this process does, however it ends, and
    /// the child with it.
    private let lifeline = Pipe()

    init(directory: String) async throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [Self.argument, directory]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = lifeline
        try process.run()
        do {
            port = try await Self.readPort(from: output.fileHandleForReading)
        } catch {
            process.terminate()
            throw error
        }
    }

    deinit { stop() }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// CPU time in seconds (user plus system, all threads), of the server process itself and
    /// of the script hosts it started (those running and those it has reaped).
    struct CPU {
        var server: Double
        var hosts: Double
        var total: Double { server + hosts }

        static func - (after: CPU, before: CPU) -> CPU {
            CPU(server: after.server - before.server, hosts: after.hosts - before.hosts)
        }

        static func + (one: CPU, other: CPU) -> CPU {
            CPU(server: one.server + other.server, hosts: one.hosts + other.hosts)
        }
    }

    /// CPU time so far of the child and of its script hosts, apart.
    func cpu() throws -> CPU {
        let pid = process.processIdentifier
        let own = try Self.statFields(of: pid)
        var hostTicks = own?.reapedChildrenTicks ?? 0
        let processes = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init)
        for other in processes where other != pid {
            if let fields = try? Self.statFields(of: other), fields.parent == pid { hostTicks += fields.ownTicks }
        }
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        return CPU(server: Double(own?.ownTicks ?? 0) / tick, hosts: Double(hostTicks) / tick)
    }

    /// User plus system CPU time so far of every process named `name` (PostgreSQL's
    /// backends: `postgres`).
    static func cpuSeconds(ofProcessesNamed name: String) throws -> Double {
        let processes = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init)
        let ticks = processes.compactMap { try? statFields(of: $0) }.filter { $0.name == name }.map(\.ownTicks).reduce(0, +)
        return Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private struct StatFields {
        var name: Substring
        var parent: Int32
        var ownTicks: Int
        var reapedChildrenTicks: Int
    }

    /// From /proc/PID/stat: ppid (field 4), utime and stime (14, 15), cutime and cstime (16, 17).
    private static func statFields(of pid: Int32) throws -> StatFields? {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) may hold spaces; the fields after it are counted from its ')'.
        guard let start = stat.firstIndex(of: "("), let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // fields[0] is field 3, so field n is fields[n - 3].
        guard fields.count > 14, let parent = Int32(fields[1]) else { return nil }
        let ticks = (11...14).map { Int(fields[$0]) ?? 0 }
        return StatFields(
            name: stat[stat.index(after: start)..<end], parent: parent, ownTicks: ticks[0] + ticks[1], reapedChildrenTicks: ticks[2] + ticks[3]
        )
    }

    /// The CPU time the child spends while the caller waits `interval`.
    func cpuSeconds(during interval: Duration) async throws -> Double {
        let before = try cpu()
        try await Task.sleep(for: interval)
        return try (cpu() - before).total
    }

    /// VmRSS from /proc, in bytes.
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }

    /// The child's side: a server with default settings that prints its port and runs until
    /// SIGTERM or the end of its standard input ends the process.
    static func serve(directory: String) async throws {
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = directory
        config.hooksDirectory = directory + "/hooks"
        let keywords = directory + "/keywords.txt"
        config.keywordFilter = FileManager.default.fileExists(atPath: keywords) ? .init(file: keywords) : nil
        // The same figures with the PostgreSQL store (the database should be empty).
        config.postgresURL = postgresURL
        Thread.detachNewThread {
            _ = FileHandle.standardInput.readDataToEndOfFile()
            exit(0)
        }
        var logger = Logger(label: "switchboard-bench-server")
        logger.logLevel = .critical
        let application = try await SwitchboardApplication(config: config, logger: logger)
        let group = try await application.serviceGroup { port in
            FileHandle.standardOutput.write(Data("port \(port)\n".utf8))
        }
        try await group.run()
    }

    private static func readPort(from handle: FileHandle) async throws -> Int {
        let line = await Task.detached {
            var text = ""
            while !text.contains("\n") {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }.value
        guard line.hasPrefix("port "), let port = Int(line.dropFirst(5).prefix { $0.isNumber }) else {
            throw BenchClient.Closed()
        }
        return port
    }
}

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

    /// CPU time so far of the child and of its script hosts, apart.
    func cpu() throws -> ProcessCPU {
        try ProcessCPU.of(process.processIdentifier)
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

import Foundation
import Logging
import SwitchboardServer
import SwitchboardWire

/// Resident size of a server process, idle and with many clients logged in. The server runs
/// in a child process (this executable, started with `serverArgument`) so that the clients'
/// own memory is not counted.
struct MemoryBenchmark {
    struct Row: Encodable {
        var clients: Int
        var idleMegabytes: Double
        var loadedMegabytes: Double
        var kilobytesPerClient: Double
    }

    static let serverArgument = "--memory-server"

    let clients: Int
    let logger: Logger

    func run() async throws -> Row {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-memory-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        server.arguments = [Self.serverArgument, directory]
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let port = try await Self.readPort(from: output.fileHandleForReading)
        try await Task.sleep(for: .seconds(1))
        let idle = try Self.residentBytes(of: server.processIdentifier)

        var connected: [BenchClient] = []
        // Logged in a few hundred at a time: fast, without a storm of simultaneous handshakes.
        for batch in stride(from: 0, to: clients, by: 250) {
            try await withThrowingTaskGroup(of: BenchClient.self) { group in
                for number in batch..<min(batch + 250, clients) {
                    group.addTask {
                        let client = try await BenchClient.connect(port: port)
                        var stream = client.received.makeAsyncIterator()
                        try await EndToEndBenchmark.login("m\(number)", client, &stream)
                        return client
                    }
                }
                for try await client in group { connected.append(client) }
            }
        }
        try await Task.sleep(for: .seconds(1))
        let loaded = try Self.residentBytes(of: server.processIdentifier)
        for client in connected { client.close() }

        let megabyte = Double(1 << 20)
        return Row(
            clients: clients, idleMegabytes: Double(idle) / megabyte, loadedMegabytes: Double(loaded) / megabyte,
            kilobytesPerClient: Double(loaded - idle) / 1024 / Double(max(clients, 1))
        )
    }

    /// The child's side: a server with default settings, no scripts and no keyword list, that
    /// prints its port and runs until SIGTERM ends the process.
    static func serve(directory: String) async throws {
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = directory
        config.hooksDirectory = directory + "/hooks"
        config.keywordFilter = nil
        var logger = Logger(label: "switchboard-bench-server")
        logger.logLevel = .critical
        let application = try SwitchboardApplication(config: config, logger: logger)
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

    /// VmRSS from /proc, in bytes.
    private static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}

import Foundation
import Logging
import SwitchboardServer
import SwitchboardWire

/// Resident size of a server process, idle and with many clients logged in, the server in
/// a child process so that the clients' own memory is not counted.
struct MemoryBenchmark {
    struct Row: Encodable {
        var clients: Int
        var idleMegabytes: Double
        var loadedMegabytes: Double
        var kilobytesPerClient: Double
        /// Server CPU while they sit idle, in percent of one core.
        var idleCPUPercent: Double
    }

    let clients: Int
    let logger: Logger

    func run() async throws -> Row {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-memory-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await ServerProcess(directory: directory)
        defer { server.stop() }
        let port = server.port
        try await Task.sleep(for: .seconds(1))
        let idle = try server.residentBytes()

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
        let loaded = try server.residentBytes()
        let idleCPU = try await server.cpuSeconds(during: .seconds(3))
        for client in connected { client.close() }

        let megabyte = Double(1 << 20)
        return Row(
            clients: clients, idleMegabytes: Double(idle) / megabyte, loadedMegabytes: Double(loaded) / megabyte,
            kilobytesPerClient: Double(loaded - idle) / 1024 / Double(max(clients, 1)),
            idleCPUPercent: 100 * idleCPU / 3
        )
    }
}

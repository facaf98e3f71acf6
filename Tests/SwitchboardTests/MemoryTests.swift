import Foundation
import SwitchboardWire
import Testing

/// Resident memory of a server process under connection churn.
@Suite struct MemoryTests {
    private func churn(_ count: Int, port: Int) async throws {
        for _ in 0..<count {
            let client = try await TestClient.connect(port: port)
            _ = try await client.request(.echo)
            client.close()
            try await client.waitUntilClosed()
        }
    }

    /// Regression: every WebSocket connection's request context, logger and socket stayed in
    /// memory after it closed (about 4.6 KB each in use; the resident size grew ~4.5 MB per
    /// 1,000 connections).
    @Test func connectionsThatCloseLeaveNothingBehind() async throws {
        let server = try await ServerProcess.start(dataDirectory: TestServer.temporaryDirectory())
        defer { server.stopIfRunning() }
        try await churn(300, port: server.port)
        let before = server.residentBytes
        try await churn(1200, port: server.port)
        let grown = server.residentBytes - before
        #expect(grown < 2_000_000, "resident memory grew \(grown / 1024) KB over 1,200 connections")
    }
}

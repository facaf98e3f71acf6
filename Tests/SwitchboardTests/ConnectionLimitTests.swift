import Foundation
import SwitchboardWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Connections that stop reading, go quiet or never finish their request are closed; a
/// shutdown does not wait on clients that do not answer.
@Suite(.storeBlind) struct ConnectionLimitTests {
    /// Sends `slow` 4 KB messages from `sender` until `watcher` sees `slow` offline, or
    /// `limit` messages have gone; returns whether it went offline.
    private func flood(
        _ cid: String, from sender: TestClient, until watcher: TestClient, sees slow: String, limit: Int, grace: Duration = .seconds(10)
    ) async throws -> Bool {
        let text = String(repeating: "x", count: 4000)
        for number in 0..<limit {
            try await sender.sendText(text, cid: cid)
            if number % 100 == 99, try await !watcher.isOnline(slow) { return true }
        }
        do {
            try await watcher.waitUntilOffline(slow, timeout: grace)
            return true
        } catch is TestClient.Timeout {
            return false
        }
    }

    @Test func aClientThatStopsReadingIsDisconnectedWhenItsQueueIsFull() async throws {
        let server = try await TestServer.start { $0.outboundQueueCommands = 100 }
        let slow = try await server.login("slow")
        let sender = try await server.login("sender")
        let watcher = try await server.login("watcher")
        let cid = try await sender.startConversation(members: ["slow"])
        slow.setPaused(true)
        #expect(try await flood(cid, from: sender, until: watcher, sees: "slow", limit: 4000))
        // The sender is unaffected, and what the slow client missed waits in the store.
        let back = try await server.login("slow")
        try await back.awaitHandled()
        #expect(!back.received { $0.cmd == .direct }.isEmpty)
        slow.setPaused(false)
        try await server.stop()
    }

    @Test func aClientThatReadsNothingIsClosedAtTheIdleTimeoutEvenWithWritesPending() async throws {
        let server = try await TestServer.start { config in
            config.idleTimeoutSeconds = 2
            config.outboundQueueCommands = 100_000
        }
        let slow = try await server.login("slow")
        let sender = try await server.login("sender")
        let cid = try await sender.startConversation(members: ["slow"])
        slow.setPaused(true)
        // Enough to back the socket up; the sender keeps talking (and watching), the slow client does not.
        #expect(try await flood(cid, from: sender, until: sender, sees: "slow", limit: 3000, grace: .seconds(10)))
        slow.setPaused(false)
        try await server.stop()
    }

    @Test func aConnectionThatNeverFinishesItsRequestIsClosed() async throws {
        let server = try await TestServer.start { $0.requestHeadTimeoutSeconds = 1 }
        // The read blocks, so on a thread of its own: on the test's, it would hold up the
        // server's tasks, its deadline among them.
        let ending = try await RawWebSocket.onThread { [port = server.port] in
            let socket = try RawSocket(port: port)
            socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            // The server closes it: reading ends (0 bytes) before the 10 s receive timeout.
            return socket.readUntilClosed(timeoutSeconds: 10)
        }
        #expect(ending == .closedByServer)
        try await server.stop()
    }

    @Test func shutdownDoesNotWaitForClientsThatNeverAnswerTheCloseHandshake() async throws {
        let server = try await ServerProcess.start(dataDirectory: TestServer.temporaryDirectory())
        defer { server.stopIfRunning() }
        var silent: [TestClient] = []
        for index in 0..<5 {
            let client = try await TestClient.login("silent\(index)", port: server.port)
            client.setPaused(true)
            silent.append(client)
        }
        let exit = try await server.terminate(limit: .seconds(30))
        // Before, each waited out a 15 s close handshake; the grace is 2 s now.
        #expect(exit < .seconds(8), "took \(exit)")
        silent.forEach { $0.setPaused(false) }
    }
}

/// A bare TCP connection, for requests no HTTP client would send.
private struct RawSocket {
    enum Ending: Equatable { case closedByServer, stillOpen }

    let descriptor: Int32

    init(port: Int) throws {
        descriptor = try LoopbackTCP.connect(port: port)
    }

    func send(_ text: String) {
        _ = text.withCString { Glibc.send(descriptor, $0, strlen($0), 0) }
    }

    /// Reads until the server closes the connection or `timeoutSeconds` pass without it.
    func readUntilClosed(timeoutSeconds: Int) -> Ending {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { Glibc.close(descriptor) }
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return .closedByServer }
            // A signal (SIGCHLD from another test's child process) interrupts the wait.
            if count < 0, errno == EINTR { continue }
            if count < 0 { return errno == ECONNRESET ? .closedByServer : .stillOpen }
        }
    }
}

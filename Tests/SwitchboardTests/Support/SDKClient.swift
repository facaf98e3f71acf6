import SwitchboardWire

/// What a test does with a client, over a real socket (`TestClient`) or straight into the
/// core (`CoreClient`): the helpers in `Commands.swift` work on both, so a suite moves
/// between them by how it starts its server. Each client gives the defaults (5 s, any command).
protocol SDKClient: Sendable {
    /// Sends a command as is.
    func send(_ command: GenericCommand)
    /// A serial `i` no earlier request of this client used.
    func nextSerial() -> Int32
    /// Takes the first received command that matches, waiting for it if needed.
    func next(timeout: Duration, _ what: String, where matches: @escaping @Sendable (GenericCommand) -> Bool) async throws -> GenericCommand
    /// Every command received so far that matches, removing them, without waiting: after
    /// `awaitHandled()`, what handling the commands sent before sent this connection at once
    /// is here.
    func received(where matches: (GenericCommand) -> Bool) -> [GenericCommand]
    /// Ends the connection from the client's side.
    func close()
}

extension SDKClient {
    /// Sends `command` with a fresh serial `i` and waits for the reply carrying it.
    @discardableResult
    func request(_ command: GenericCommand, timeout: Duration = .seconds(5)) async throws -> GenericCommand {
        var numbered = command
        numbered.i = nextSerial()
        send(numbered)
        let serial = numbered.i
        return try await next(timeout: timeout, "reply to \(command.cmd)/\(command.op) i=\(serial)", where: { $0.hasI && $0.i == serial })
    }

    /// Waits `period` and returns every received command that matches, removing them.
    func collect(for period: Duration, where matches: (GenericCommand) -> Bool) async throws -> [GenericCommand] {
        try await Task.sleep(for: period)
        return received(where: matches)
    }

    /// Returns once every command sent before has been handled: the connection's commands
    /// are handled in order, so the reply to one more comes after them (and over a socket,
    /// after whatever was queued for the connection before it: its frames go out in order).
    /// For a test that something did not arrive, in place of waiting a while.
    func awaitHandled() async throws {
        try await request(.onlineStatus([]))
    }

    /// Every message of the conversation's history, oldest first: page by page, each page
    /// the messages older than the oldest one already read (one page holds at most 1,000).
    func wholeHistory(cid: String) async throws -> [LogItem] {
        var items: [LogItem] = []
        while true {
            let page = try await request(.logs(cid: cid, limit: 1000, t: items.first?.timestamp)).logsMessage.logs
            guard !page.isEmpty else { return items }
            items.insert(contentsOf: page, at: 0)
        }
    }

    /// Returns once what the commands `senders` sent before have sent this client is here:
    /// a sender's next request is answered once those are handled (and what they deliver
    /// queued), and then this client's own, after what was queued for it. Deliveries from
    /// the background queue (observing hooks, pushes) are not covered.
    func awaitDeliveries(from senders: any SDKClient...) async throws {
        for sender in senders { try await sender.awaitHandled() }
        try await awaitHandled()
    }
}

import Synchronization
import SwitchboardCore
import SwitchboardWire

/// A client connection straight into a `MessagingCore`, without a socket: its commands are
/// handled one after another, in the order sent, as the WebSocket gateway handles a
/// connection's frames; what the core sends it waits in a `MemoryOutbox`.
final class CoreClient: SDKClient {
    private enum Input {
        case command(GenericCommand)
        /// The connection ended, its client last heard `silentFor` before.
        case end(silentFor: Duration)
    }

    let connection: Connection
    private let outbox: MemoryOutbox
    private let input: AsyncStream<Input>.Continuation
    private let handling: Task<Void, Never>
    private let serials = Atomic<Int32>(1)

    /// - Parameter missedMessages: pushed, unless the test plays a client of `lc.protobuf2.3`.
    init(core: MessagingCore, id: UInt64, missedMessages: MissedMessages = .pushed) {
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        // The core closing the connection ends it as a socket's close does.
        let outbox = MemoryOutbox(closed: { input.yield(.end(silentFor: .zero)) })
        let connection = Connection(id: id, outbox: outbox, remoteAddress: "127.0.0.1", missedMessages: missedMessages)
        self.outbox = outbox
        self.input = input
        self.connection = connection
        handling = Task {
            for await item in inputs {
                switch item {
                case .command(let command):
                    await core.handle(command, on: connection)
                case .end(let silentFor):
                    outbox.close()
                    await core.connectionClosed(connection, silentFor: silentFor)
                    return
                }
            }
        }
    }

    var isClosed: Bool { !outbox.isOpen }

    func send(_ command: GenericCommand) {
        input.yield(.command(command))
    }

    func nextSerial() -> Int32 {
        serials.add(1, ordering: .relaxed).oldValue
    }

    func next(
        timeout: Duration = .seconds(5), _ what: String = "command", where matches: @escaping @Sendable (GenericCommand) -> Bool
    ) async throws -> GenericCommand {
        guard let found = await outbox.inbox.takeFirst(within: timeout, where: matches) else {
            throw TestClient.Timeout(description: "no \(what) within \(timeout)")
        }
        return found
    }

    func received(where matches: (GenericCommand) -> Bool) -> [GenericCommand] {
        outbox.inbox.takeAll(where: matches)
    }

    /// Ends the connection as a client closing its socket does (`closed()` waits until the
    /// core has wound it up).
    func close() {
        input.yield(.end(silentFor: .zero))
    }

    /// Ends the connection as the gateway does when a socket dies without a word: its client
    /// was last heard `silentFor` before, on the core's clock.
    func drop(silentFor: Duration) {
        input.yield(.end(silentFor: silentFor))
    }

    /// Waits until the connection's end has been handled (its sessions closed).
    func closed() async {
        await handling.value
    }

    deinit {
        input.yield(.end(silentFor: .zero))
        input.finish()
    }
}

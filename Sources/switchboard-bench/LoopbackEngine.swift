import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The cheapest possible LeanEngine app, in this process: every hook answers
/// `{"result":{}}`. What a remote hook costs beyond the engine's own work.
struct LoopbackEngine {
    let url: URL
    private let group: ServiceGroup

    static func start(logger: Logger) async throws -> LoopbackEngine {
        let router = Router()
        router.post("/1.1/functions/:hook") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"result":{}}"#)))
        }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) }, logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        Task { try await group.run() }
        for await port in ports {
            return LoopbackEngine(url: URL(string: "http://127.0.0.1:\(port)")!, group: group)
        }
        throw CancellationError()
    }

    func stop() async {
        await group.triggerGracefulShutdown()
    }
}

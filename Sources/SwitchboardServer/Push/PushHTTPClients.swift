import AsyncHTTPClient
import NIOSSL
import Synchronization

/// The HTTP/2 clients that talk to push services (APNs, FCM, the Android makers', and their token endpoints), one for
/// each set of trusted roots, kept for the process's life: AsyncHTTPClient requires a client
/// to be shut down before it goes, and these never go (as `OutboundHTTP.client`).
enum PushHTTPClients {
    private static let clients = Mutex<[String?: HTTPClient]>([:])

    static func client(trustRootsFile: String?) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[trustRootsFile] { return client }
            var tls = TLSConfiguration.makeClientConfiguration()
            if let trustRootsFile { tls.trustRoots = .file(trustRootsFile) }
            let client = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: .init(tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(30)))
            )
            clients[trustRootsFile] = client
            return client
        }
    }
}

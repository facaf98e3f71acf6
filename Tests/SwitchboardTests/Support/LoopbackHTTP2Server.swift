import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// An HTTP/2 server over TLS on 127.0.0.1 with `TestCertificate`, playing a push service:
/// it records every request and answers each as `respond` says.
final class LoopbackHTTP2Server: Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
    }

    struct Answer: Sendable {
        var status: Int
        var body: String = ""
        /// Headers besides `content-length` (`retry-after`).
        var headers: [String: String] = [:]
    }

    let port: Int
    private let channel: any Channel
    private let recorder: Recorder

    private init(channel: any Channel, recorder: Recorder) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
        self.recorder = recorder
    }

    var requests: [Request] { recorder.received.value }

    static func start(respond: @escaping @Sendable (Request) -> Answer = { _ in Answer(status: 200) }) async throws -> LoopbackHTTP2Server {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(TestCertificate.certificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(TestCertificate.keyPEM.utf8), format: .pem))
        )
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let recorder = Recorder(respond: respond)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers([HTTP2FramePayloadToHTTP1ServerCodec(), StreamHandler(recorder: recorder)])
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return LoopbackHTTP2Server(channel: channel, recorder: recorder)
    }

    /// Waits until `count` requests have come, or fails after `timeout`.
    func waitForRequests(_ count: Int, timeout: Duration = .seconds(10)) async throws -> [Request] {
        try await requests(until: { $0.count >= count }, timeout: timeout, "\(count) requests")
    }

    /// The requests come so far, once they are `enough`: checked as each one comes. Fails
    /// after `timeout`, naming what it waited for.
    func requests(
        until enough: @escaping @Sendable ([Request]) -> Bool, timeout: Duration = .seconds(10), _ awaited: @autoclosure () -> String
    ) async throws -> [Request] {
        guard let requests = await recorder.received.wait(timeout: timeout, take: { enough($0) ? $0 : nil }) else {
            throw TestClient.Timeout(description: "\(requests.count) requests reached the stand-in, waiting for \(awaited())")
        }
        return requests
    }

    func stop() async throws {
        try await channel.close()
    }

    private final class Recorder: Sendable {
        let received = WatchedValue<[Request]>([])
        let respond: @Sendable (Request) -> Answer

        init(respond: @escaping @Sendable (Request) -> Answer) {
            self.respond = respond
        }
    }

    private final class StreamHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let recorder: Recorder
        private var head: HTTPRequestHead?
        private var body = ""

        init(recorder: Recorder) {
            self.recorder = recorder
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
            case .body(let buffer):
                body += String(buffer: buffer)
            case .end:
                guard let head else { return }
                let request = Request(
                    method: head.method.rawValue, path: head.uri,
                    headers: Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }),
                    body: body
                )
                recorder.received.update { $0.append(request) }
                let answer = recorder.respond(request)
                var headers = HTTPHeaders()
                headers.add(name: "content-length", value: String(answer.body.utf8.count))
                for (name, value) in answer.headers { headers.add(name: name, value: value) }
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .init(statusCode: answer.status), headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: answer.body)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}

import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// A LeanStorage REST server on loopback whose answers a test sets, recording what it was
/// sent: stands in for LeanCloud's API server or an app's own.
final class FakeLeanStorage: Sendable {
    struct Seen: Sendable {
        var method: String
        var path: String
        /// The query string's parameters, decoded.
        var query: [String: String]
        /// The query string as sent.
        var rawQuery: String
        var headers: [String: String]
        var body: String
    }

    typealias Answer = @Sendable (Seen) -> (status: Int, body: String)

    /// How each request is answered; `{}` until a test says otherwise.
    let answer = Mutex<Answer>({ _ in (200, "{}") })
    /// The `Retry-After` each answer has, if any.
    let retryAfter = Mutex<String?>(nil)
    /// How long each request waits before its answer.
    let delay = Mutex<Duration>(.zero)
    private let seen = Mutex<[Seen]>([])
    private let server = Mutex<LocalHTTPServer?>(nil)

    var requests: [Seen] { seen.withLock { $0 } }
    var url: URL { URL(string: "http://127.0.0.1:\(server.withLock { $0?.port ?? 0 })")! }

    func answering(_ answer: @escaping Answer) {
        self.answer.withLock { $0 = answer }
    }

    static func start() async throws -> FakeLeanStorage {
        let storage = FakeLeanStorage()
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put, .delete] {
            router.on("**", method: method) { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                var headers: [String: String] = [:]
                for field in request.headers { headers[field.name.canonicalName] = field.value }
                var query: [String: String] = [:]
                for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
                let seen = Seen(method: request.method.rawValue, path: request.uri.path, query: query, rawQuery: request.uri.query ?? "", headers: headers, body: String(buffer: body))
                storage.seen.withLock { $0.append(seen) }
                try await Task.sleep(for: storage.delay.withLock { $0 })
                let (status, text) = storage.answer.withLock { $0 }(seen)
                var fields: HTTPFields = [.contentType: "application/json"]
                if let wait = storage.retryAfter.withLock({ $0 }) { fields[.retryAfter] = wait }
                return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
        let server = try await LocalHTTPServer.start(router, label: "fake-leanstorage")
        storage.server.withLock { $0 = server }
        return storage
    }

    func stop() async {
        await server.withLock { $0 }?.stop()
    }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwitchboardData
import SwitchboardJSON

/// Calls to a LeanStorage REST server as LeanCloud's SDKs make them: `{url}/1.1/...`, the
/// app's id and a master-key signature in headers, JSON bodies. Every failure is a
/// `StorageError`: the server's own `{code, error}`, 124 for no answer in time, 1 (naming
/// the server) for one that cannot be reached or answers with something other than JSON.
/// `exchange` gives the answer as it came, for callers that judge it themselves
/// (`switchboard leancloud export`, which also reads LeanCloud's `/1.2/rtm` API).
public struct LeanStorageClient: Sendable {
    let storage: RemoteStorage
    /// Larger answers are refused: a page of 1000 objects fits many times over.
    static let maxResponseBytes = 32 << 20

    public init(storage: RemoteStorage) {
        self.storage = storage
    }

    /// An answer as the server gave it.
    public struct Answer: Sendable {
        public let status: Int
        /// `Retry-After`, as sent (seconds, or an HTTP date).
        public let retryAfter: String?
        public let text: String
    }

    /// Why a request got no answer.
    public enum NoAnswer: Error, CustomStringConvertible {
        /// Not connected, or the connection dropped before the whole answer came.
        case unreachable(any Error)
        /// No whole answer within the storage's timeout.
        case timedOut(Duration)
        /// An answer past `maxResponseBytes`.
        case tooLarge

        public var description: String {
            switch self {
            case .unreachable(let error): "cannot be reached: \(error)"
            case .timedOut(let time): "did not answer within \(time)"
            case .tooLarge: "answered with more than \(LeanStorageClient.maxResponseBytes >> 20) MB"
            }
        }
    }

    /// The JSON object the server answers `method` on `/1.1/{path}` with; an empty body
    /// counts as `{}`.
    func call(_ method: HTTPMethod, _ path: [String], query: [(String, String)] = [], body: JSONValue? = nil) async throws -> [String: JSONValue] {
        let what = "\(method.rawValue) /1.1/\(path.joined(separator: "/"))"
        let answered: Answer
        do throws(NoAnswer) {
            answered = try await exchange(["1.1"] + path, method: method, query: query, body: body)
        } catch {
            switch error {
            case .tooLarge:
                throw StorageError(code: 1, "\(server) answered \(what) with more than \(Self.maxResponseBytes >> 20) MB.", status: 502)
            case .timedOut:
                throw StorageError(code: 124, "The request timed out: \(server) did not answer \(what) within \(storage.timeout) (hooks.storage.timeoutMs).", status: 504)
            case .unreachable(let cause):
                throw StorageError(code: 1, "\(server) cannot be reached (\(what)): \(cause)", status: 502)
            }
        }
        return try answer(status: answered.status, text: answered.text, to: what)
    }

    /// What the server answers `method` on `{url}/{path}` (segments, each escaped), whatever
    /// its status.
    public func exchange(_ path: [String], method: HTTPMethod = .GET, query: [(String, String)] = [], body: JSONValue? = nil) async throws(NoAnswer) -> Answer {
        let request = request(method, path, query: query, body: body)
        let answered: Answer?
        do {
            answered = try await OutboundHTTP.within(storage.timeout) {
                let response = try await OutboundHTTP.client.execute(request, timeout: .hours(1))
                let text = String(buffer: try await response.body.collect(upTo: Self.maxResponseBytes))
                return Answer(status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"), text: text)
            }
        } catch is NIOTooManyBytesError {
            throw .tooLarge
        } catch {
            throw .unreachable(error)
        }
        guard let answered else { throw .timedOut(storage.timeout) }
        return answered
    }

    /// How the server is named in errors: its address without credentials or path.
    public var server: String {
        let url = storage.url
        return "LeanStorage at \(url.scheme ?? "http")://\(url.host ?? "")" + (url.port.map { ":\($0)" } ?? "")
    }

    /// An answer the server should not have given, as an error naming it.
    func unexpected(_ what: String, _ answer: [String: JSONValue]) -> StorageError {
        StorageError(code: 1, "\(server) answered \(what) with \(Self.excerpt(JSONValue.object(answer).jsonString)).", status: 502)
    }

    private func answer(status: Int, text: String, to what: String) throws(StorageError) -> [String: JSONValue] {
        let json = text.isEmpty ? JSONValue.object([:]) : try? JSONValue(parsing: text)
        if (200..<300).contains(status), let object = json?.objectValue { return object }
        if !(200..<300).contains(status), let code = json?["code"]?.int64Value {
            throw StorageError(code: Int(clamping: code), json?["error"]?.stringValue ?? "(no message)", status: status)
        }
        throw StorageError(code: 1, "\(server) answered \(what) with HTTP \(status) and no LeanStorage answer: \(Self.excerpt(text))", status: 502)
    }

    private func request(_ method: HTTPMethod, _ path: [String], query: [(String, String)], body: JSONValue?) -> HTTPClientRequest {
        var base = storage.url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var url = base + "/" + path.map(Self.escaped).joined(separator: "/")
        if !query.isEmpty { url += "?" + query.map { Self.escaped($0) + "=" + Self.escaped($1) }.joined(separator: "&") }
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "X-LC-Id", value: storage.appID)
        request.headers.add(name: "X-LC-Sign", value: RequestSignature.sign(masterKey: storage.masterKey))
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Switchboard")
        if let body { request.body = .bytes(ByteBuffer(string: body.jsonString)) }
        return request
    }

    /// Percent-encoded as a form's values are, so `where` arrives as the JSON it was.
    private static func escaped(_ text: String) -> String {
        FormURLEncoded.escaped(text)
    }

    private static func excerpt(_ text: String) -> String {
        text.isEmpty ? "(empty)" : String(text.prefix(200))
    }
}

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
struct LeanStorageClient: Sendable {
    let storage: RemoteStorage
    /// Larger answers are refused: a page of 1000 objects fits many times over.
    static let maxResponseBytes = 32 << 20

    /// The JSON object the server answers `method` on `/1.1/{path}` with; an empty body
    /// counts as `{}`.
    func call(_ method: HTTPMethod, _ path: [String], query: [(String, String)] = [], body: JSONValue? = nil) async throws -> [String: JSONValue] {
        let what = "\(method.rawValue) /1.1/\(path.joined(separator: "/"))"
        let request = request(method, path, query: query, body: body)
        let answered: (status: Int, text: String)?
        do {
            answered = try await OutboundHTTP.within(storage.timeout) {
                let response = try await OutboundHTTP.client.execute(request, timeout: .hours(1))
                return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: Self.maxResponseBytes)))
            }
        } catch is NIOTooManyBytesError {
            throw StorageError(code: 1, "\(server) answered \(what) with more than \(Self.maxResponseBytes >> 20) MB.", status: 502)
        } catch {
            throw StorageError(code: 1, "\(server) cannot be reached (\(what)): \(error)", status: 502)
        }
        guard let answered else {
            throw StorageError(code: 124, "The request timed out: \(server) did not answer \(what) within \(storage.timeout) (hooks.storage.timeoutMs).", status: 504)
        }
        return try answer(status: answered.status, text: answered.text, to: what)
    }

    /// How the server is named in errors: its address without credentials or path.
    var server: String {
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
        var url = base + "/1.1/" + path.map(Self.escaped).joined(separator: "/")
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

    /// RFC 3986's unreserved characters stay; everything else (`+`, `&`, `/`, UTF-8) is
    /// percent-encoded, so `where` arrives as the JSON it was.
    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func excerpt(_ text: String) -> String {
        text.isEmpty ? "(empty)" : String(text.prefix(200))
    }
}

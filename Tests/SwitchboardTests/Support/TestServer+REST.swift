import Crypto
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls to the server's REST API over real HTTP, as an app's backend makes them.
extension TestServer {
    /// LeanCloud's `X-LC-Sign`: `md5(timestamp + master key),timestamp,master`.
    static func masterSignature(_ masterKey: String, at milliseconds: Int64) -> String {
        Insecure.MD5.hash(data: Data("\(milliseconds)\(masterKey)".utf8)).map { String(format: "%02x", $0) }.joined() + ",\(milliseconds),master"
    }

    /// The status and JSON object of a call; `key`: `.some(nil)` for the master key, `nil`
    /// for no `X-LC-Key`, else that key.
    func rest(
        _ method: String, _ path: String, body: [String: Any]? = nil, raw: String? = nil, key: String?? = .some(nil), sign: String? = nil
    ) async throws -> (Int, [String: Any]) {
        let (status, data) = try await restData(method, path, body: body, raw: raw, key: key, sign: sign)
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    /// The status, body and JSON array of a GET.
    func restArray(_ path: String) async throws -> (Int, Data, [[String: Any]]) {
        let (status, data) = try await restData("GET", path)
        return (status, data, (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? [])
    }

    func restData(
        _ method: String, _ path: String, body: [String: Any]? = nil, raw: String? = nil, key: String?? = .some(nil), sign: String? = nil
    ) async throws -> (Int, Data) {
        let (response, data) = try await restExchange(method, path, body: body, raw: raw, key: key, sign: sign)
        return (response.statusCode, data)
    }

    /// The whole response, headers too; `contentType`: false to send a body without one,
    /// as `curl -d` examples do; `headers` are sent as well, over any of the others.
    func restExchange(
        _ method: String, _ path: String, body: [String: Any]? = nil, raw: String? = nil, key: String?? = .some(nil), sign: String? = nil,
        contentType: Bool = true, headers: [String: String] = [:]
    ) async throws -> (HTTPURLResponse, Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue(config.appID, forHTTPHeaderField: "X-LC-Id")
        switch key {
        case .none: break
        case .some(.none): request.setValue(config.masterKey + ",master", forHTTPHeaderField: "X-LC-Key")
        case .some(.some(let given)): request.setValue(given, forHTTPHeaderField: "X-LC-Key")
        }
        if let sign { request.setValue(sign, forHTTPHeaderField: "X-LC-Sign") }
        if let body { request.httpBody = try JSONSerialization.data(withJSONObject: body) }
        if let raw { request.httpBody = Data(raw.utf8) }
        if request.httpBody != nil, contentType { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (try #require(response as? HTTPURLResponse), data)
    }
}

extension TestServer {
    /// A request with the master key written byte for byte, for what URLSession will not
    /// send (a GET with a body); the connection closes after it. The status and body.
    func rawREST(_ method: String, _ path: String, json: String) throws -> (Int, Data) {
        let descriptor = try LoopbackTCP.connect(port: port)
        defer { close(descriptor) }
        let request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-LC-Id: \(config.appID)\r\nX-LC-Key: \(config.masterKey),master\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)"
        let bytes = Array(request.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw TestClient.Timeout(description: "write failed") }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = read(descriptor, &buffer, buffer.count), count > 0 { response += buffer[..<count] }
        let text = String(decoding: response, as: UTF8.self)
        guard let head = text.range(of: "\r\n\r\n"), let status = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw TestClient.Timeout(description: "no HTTP response: \(text)")
        }
        return (status, Data(text[head.upperBound...].utf8))
    }
}

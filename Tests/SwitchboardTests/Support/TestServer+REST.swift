import Crypto
import Foundation
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
        if request.httpBody != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}

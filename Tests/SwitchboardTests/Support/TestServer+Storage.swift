import Foundation
import Testing

/// Calls to LeanStorage's REST API (`/1.1/classes`) as a backend makes them.
extension TestServer {
    /// `base` with a query string, each value escaped as the SDKs escape JSON in `where`.
    static func path(_ base: String, _ query: KeyValuePairs<String, String>) -> String {
        base + "?" + query.map { name, value in name + "=" + value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }.joined(separator: "&")
    }

    /// Creates an object with the master key and gives its objectId.
    func create(_ className: String, _ fields: [String: Any]) async throws -> String {
        let (status, answer) = try await rest("POST", "/1.1/classes/\(className)", body: fields)
        #expect(status == 201, "create in \(className): \(answer)")
        return try #require(answer["objectId"] as? String, "create in \(className): \(answer)")
    }

    /// The `results` of a query.
    func find(_ className: String, _ query: KeyValuePairs<String, String>) async throws -> [[String: Any]] {
        let (status, answer) = try await rest("GET", Self.path("/1.1/classes/\(className)", query))
        #expect(status == 200, "query of \(className): \(answer)")
        return try #require(answer["results"] as? [[String: Any]], "query of \(className): \(answer)")
    }

    /// The JSON array a call answers (`/1.1/batch`).
    func restList(_ method: String, _ path: String, body: [String: Any]) async throws -> (Int, [[String: Any]]) {
        let (status, data) = try await restData(method, path, body: body)
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? [])
    }
}

import AsyncHTTPClient
import NIOCore
import NIOHTTP1

extension VendorAccountSettings {
    /// A maker's answer to a request.
    struct Answer: Sendable {
        let status: Int
        let headers: HTTPHeaders
        /// Up to 64 KiB: the makers answer in a few hundred bytes.
        let body: String
    }

    /// POSTs `body` to `path` under the account's base URL, through the client that trusts
    /// the account's roots; `headers` go before the content type.
    func post(_ path: String, contentType: String, headers: [(name: String, value: String)] = [], body: String) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL.appendingPathComponent(path).absoluteString)
        request.method = .POST
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.headers.add(name: "content-type", value: contentType)
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await PushHTTPClients.client(trustRootsFile: trustRootsFile).execute(request, timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 64 * 1024))
        return Answer(status: Int(response.status.code), headers: response.headers, body: text)
    }
}

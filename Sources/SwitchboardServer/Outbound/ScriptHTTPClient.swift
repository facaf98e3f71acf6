import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwitchboardJS

/// Makes hook scripts' HTTP requests (`AV.Cloud.httpRequest`, `fetch`), to hosts on the
/// allow list only. Redirects are followed here, hop by hop, so that each hop is checked
/// too. The whole exchange, body included, ends with the time the call has left.
struct ScriptHTTPClient: ScriptHTTP {
    let allowList: HostAllowList
    let maxResponseBytes: Int
    static let maxRedirects = 5
    /// Headers the client sets itself; from a script they could only confuse the exchange.
    private static let reserved: Set<String> = ["host", "connection", "content-length", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer"]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func perform(_ request: ScriptHTTPRequest, within time: Duration) async throws -> ScriptHTTPResponse {
        guard let response = try await OutboundHTTP.within(time, { try await exchange(request) }) else {
            throw Failure(description: "\(request.url) did not answer within the call's budget (\(time) were left)")
        }
        return response
    }

    private func exchange(_ request: ScriptHTTPRequest) async throws -> ScriptHTTPResponse {
        var url = request.url
        var method = request.method
        var body = request.body
        for _ in 0...Self.maxRedirects {
            let target = try checked(url)
            var outgoing = HTTPClientRequest(url: target.absoluteString)
            outgoing.method = HTTPMethod(rawValue: method)
            for header in request.headers where !Self.reserved.contains(header.name.lowercased()) {
                outgoing.headers.add(name: header.name, value: header.value)
            }
            if !outgoing.headers.contains(name: "user-agent") { outgoing.headers.add(name: "User-Agent", value: "Switchboard-Hooks") }
            if let body { outgoing.body = .bytes(ByteBuffer(string: body)) }
            let response = try await OutboundHTTP.client.execute(outgoing, timeout: .hours(1))
            let status = Int(response.status.code)
            if request.followRedirects, [301, 302, 303, 307, 308].contains(status),
               let location = response.headers.first(name: "location"), let next = URL(string: location, relativeTo: target)?.absoluteURL {
                // As browsers do: 303, and 301/302 after a POST, go on as GET without the body.
                if status == 303 || (status < 307 && method == "POST") {
                    method = "GET"
                    body = nil
                }
                url = next.absoluteString
                continue
            }
            let bytes: ByteBuffer
            do {
                bytes = try await response.body.collect(upTo: maxResponseBytes)
            } catch is NIOTooManyBytesError {
                throw Failure(description: "the response from \(url) is larger than \(maxResponseBytes) bytes (hooks.http.maxResponseBytes)")
            }
            return ScriptHTTPResponse(
                status: status, url: url, headers: response.headers.map { .init(name: $0.name, value: $0.value) },
                body: String(buffer: bytes)
            )
        }
        throw Failure(description: "\(request.url) redirected more than \(Self.maxRedirects) times")
    }

    private func checked(_ url: String) throws -> URL {
        guard let target = URL(string: url), let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = target.host, !host.isEmpty
        else {
            throw Failure(description: "\(url) is not an http or https URL")
        }
        guard allowList.allows(host: host, port: target.port ?? (scheme == "https" ? 443 : 80)) else {
            throw Failure(description: "\(host) is not in hooks.http.allow; scripts may call only the hosts listed there")
        }
        return target
    }
}

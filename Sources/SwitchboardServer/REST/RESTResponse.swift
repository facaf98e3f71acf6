import Hummingbird
import NIOCore
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON

/// Answers in the shape of LeanCloud's REST API: a JSON body, errors as `{code, error}`.
enum RESTResponse {
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: value.jsonString))
        )
    }

    static func error(_ status: HTTPResponse.Status, code: Int, _ message: String) -> Response {
        json(Refusal(status: status, code: code, message: message).json, status: status)
    }

    /// Answers with `body`'s JSON, or with LeanCloud's error for what it threw (`refusal`).
    static func answering(_ body: () async throws -> JSONValue) async -> Response {
        do {
            return json(try await body())
        } catch {
            return refusal(error)
        }
    }

    /// LeanCloud's error answer for what a request threw (see `Refusal.init(for:)`).
    static func refusal(_ thrown: any Error) -> Response {
        let refusal = Refusal(for: thrown)
        return json(refusal.json, status: refusal.status)
    }

    /// A failure in LeanCloud's words: its HTTP status, code and message.
    struct Refusal {
        let status: HTTPResponse.Status
        let code: Int
        let message: String

        /// `{"code": ..., "error": ...}`, a failed answer's body, or an element of
        /// `/1.1/batch`'s answer under `error`.
        var json: JSONValue { ["code": .int(Int64(code)), "error": .string(message)] }
    }
}

extension RESTResponse.Refusal {
    /// What a request threw: 107 for a malformed request, 413 for a body too large, 101 for
    /// an object that does not exist, 1 for a query the server cannot run, a storage
    /// refusal's own code and status, the command's own code for a refusal (404 for a
    /// conversation or message that does not exist), 1 with 500 for anything else.
    init(for thrown: any Error) {
        switch thrown {
        case let failure as RESTFailure:
            self.init(status: .badRequest, code: 107, message: failure.message)
        case is RESTPayloadTooLarge:
            self.init(status: .contentTooLarge, code: 413, message: "Payload Too Large.")
        case let missing as RESTNotFound:
            self.init(status: .notFound, code: 101, message: missing.message)
        case let unsupported as DocumentFilter.Unsupported:
            self.init(status: .badRequest, code: 1, message: unsupported.description)
        case let refused as StorageError:
            self.init(status: .init(code: refused.status), code: refused.code, message: refused.message)
        case let failure as CommandError:
            let status: HTTPResponse.Status = [.conversationNotFound, .messageNotFound].contains(failure.code) ? .notFound : .badRequest
            self.init(status: status, code: Int(failure.code.rawValue), message: failure.detail ?? failure.code.reason)
        default:
            self.init(status: .internalServerError, code: 1, message: "internal error")
        }
    }
}

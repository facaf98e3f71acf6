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
        json(.object(["code": .int(Int64(code)), "error": .string(message)]), status: status)
    }

    /// Answers with `body`'s JSON, or with LeanCloud's error for what it threw: 107 for a
    /// malformed request, 413 for a body too large, 101 for an object that does not exist, 1 for a query the server cannot run, a `StorageError`'s own code and status, the command's own code for a
    /// refusal (404 for a conversation or message that does not exist).
    static func answering(_ body: () async throws -> JSONValue) async -> Response {
        do {
            return json(try await body())
        } catch let failure as RESTFailure {
            return error(.badRequest, code: 107, failure.message)
        } catch is RESTPayloadTooLarge {
            return error(.contentTooLarge, code: 413, "Payload Too Large.")
        } catch let missing as RESTNotFound {
            return error(.notFound, code: 101, missing.message)
        } catch let refusal as StorageError {
            return error(HTTPResponse.Status(code: refusal.status), code: refusal.code, refusal.message)
        } catch let unsupported as DocumentFilter.Unsupported {
            return error(.badRequest, code: 1, unsupported.description)
        } catch let failure as CommandError {
            let status: HTTPResponse.Status = [.conversationNotFound, .messageNotFound].contains(failure.code) ? .notFound : .badRequest
            return error(status, code: Int(failure.code.rawValue), failure.detail ?? failure.code.reason)
        } catch {
            return self.error(.internalServerError, code: 1, "internal error")
        }
    }
}

import Hummingbird
import NIOCore
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
}

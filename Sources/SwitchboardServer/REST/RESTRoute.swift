import Hummingbird
import SwitchboardJSON

/// One endpoint of the server REST API (IM's `/1.2/rtm` and LeanStorage's `/1.1/classes`):
/// how it is called, what it takes and what it does.
/// The router is built from these and `/openapi.json` is written from them, so the document
/// says exactly what the server answers.
struct RESTRoute: Sendable {
    let method: HTTPRequest.Method
    /// OpenAPI's form, `/1.2/rtm/conversations/{conv_id}`.
    let path: String
    let summary: String
    let query: [RESTField]
    /// The body's fields; any other is refused with 107 unless `moreFields` (a
    /// conversation's own attributes).
    let body: [RESTField]
    let moreFields: Bool
    /// LeanCloud lets the app key alone call a few endpoints; the rest need the master key.
    let appKeyAllowed: Bool
    /// The quota the route counts against, if any.
    let rateClass: RESTRateClass?
    /// The status of an answer (LeanStorage's create is 201).
    let successStatus: HTTPResponse.Status
    /// Bodies past this are refused with 413.
    let maxBodyBytes: Int
    let reply: @Sendable (RESTCall) async throws -> RESTReply

    /// Bodies past this are refused unless a route says otherwise: an IM message is at most
    /// 5 KB, with room for the rest.
    static let defaultMaxBodyBytes = 64 * 1024

    /// A route answering 200 with JSON alone, as the IM REST API's do.
    init(
        _ method: HTTPRequest.Method, _ path: String, _ summary: String, query: [RESTField] = [], body: [RESTField] = [],
        moreFields: Bool = false, appKeyAllowed: Bool = false, rateClass: RESTRateClass? = nil,
        answer: @escaping @Sendable (RESTCall) async throws -> JSONValue
    ) {
        self.init(
            method, path, summary, query: query, body: body, moreFields: moreFields, appKeyAllowed: appKeyAllowed, rateClass: rateClass,
            maxBodyBytes: Self.defaultMaxBodyBytes, replying: { call in RESTReply(body: try await answer(call)) }
        )
    }

    init(
        _ method: HTTPRequest.Method, _ path: String, _ summary: String, query: [RESTField] = [], body: [RESTField] = [],
        moreFields: Bool = false, appKeyAllowed: Bool = false, rateClass: RESTRateClass? = nil, successStatus: HTTPResponse.Status = .ok,
        maxBodyBytes: Int, replying reply: @escaping @Sendable (RESTCall) async throws -> RESTReply
    ) {
        self.method = method
        self.path = path
        self.summary = summary
        self.query = query
        self.body = body
        self.moreFields = moreFields
        self.appKeyAllowed = appKeyAllowed
        self.rateClass = rateClass
        self.successStatus = successStatus
        self.maxBodyBytes = maxBodyBytes
        self.reply = reply
    }

    /// The names in braces, in order.
    var pathParameters: [String] {
        path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
    }

    /// Hummingbird's form, `/1.2/rtm/conversations/:conv_id`.
    var routerPath: String {
        "/" + path.split(separator: "/").map { $0.hasPrefix("{") ? ":" + $0.dropFirst().dropLast() : String($0) }.joined(separator: "/")
    }
}

/// A field of a REST request's body or query string, as the OpenAPI document names it.
struct RESTField: Sendable {
    enum Kind: String, Sendable {
        case string, integer, boolean, array, object
        /// An array of JSON objects (`/1.1/batch`'s `requests`).
        case objects
        /// A string or a JSON object (`push_data`).
        case stringOrObject
    }

    let name: String
    let kind: Kind
    let required: Bool

    static func string(_ name: String, required: Bool = false) -> Self { .init(name: name, kind: .string, required: required) }
    static func integer(_ name: String, required: Bool = false) -> Self { .init(name: name, kind: .integer, required: required) }
    static func boolean(_ name: String) -> Self { .init(name: name, kind: .boolean, required: false) }
    static func strings(_ name: String, required: Bool = false) -> Self { .init(name: name, kind: .array, required: required) }
    static func object(_ name: String) -> Self { .init(name: name, kind: .object, required: false) }
    static func objects(_ name: String, required: Bool = false) -> Self { .init(name: name, kind: .objects, required: required) }
    static func stringOrObject(_ name: String) -> Self { .init(name: name, kind: .stringOrObject, required: false) }
}

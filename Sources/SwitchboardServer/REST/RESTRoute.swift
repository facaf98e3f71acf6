import Hummingbird
import SwitchboardJSON

/// One endpoint of the server REST API: how it is called, what it takes and what it does.
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
    let answer: @Sendable (RESTCall) async throws -> JSONValue

    init(
        _ method: HTTPRequest.Method, _ path: String, _ summary: String, query: [RESTField] = [], body: [RESTField] = [],
        moreFields: Bool = false, appKeyAllowed: Bool = false, rateClass: RESTRateClass? = nil,
        answer: @escaping @Sendable (RESTCall) async throws -> JSONValue
    ) {
        self.method = method
        self.path = path
        self.summary = summary
        self.query = query
        self.body = body
        self.moreFields = moreFields
        self.appKeyAllowed = appKeyAllowed
        self.rateClass = rateClass
        self.answer = answer
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
    static func stringOrObject(_ name: String) -> Self { .init(name: name, kind: .stringOrObject, required: false) }
}

import SwitchboardJSON

/// An HTTP request a script made, as the prelude asks for it:
/// `{method, url, headers: [[name, value]], body, followRedirects}`.
public struct ScriptHTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    public var headers: [Header]
    /// Text, sent as UTF-8.
    public var body: String?
    public var followRedirects: Bool

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(method: String = "GET", url: String, headers: [Header] = [], body: String? = nil, followRedirects: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.followRedirects = followRedirects
    }

    init?(json: JSONValue) {
        guard let url = json["url"]?.stringValue else { return nil }
        self.url = url
        method = (json["method"]?.stringValue ?? "GET").uppercased()
        headers = (json["headers"]?.arrayValue ?? []).compactMap { pair in
            guard let pair = pair.arrayValue, pair.count == 2, let name = pair[0].stringValue, let value = pair[1].stringValue else { return nil }
            return Header(name: name, value: value)
        }
        body = json["body"]?.stringValue
        followRedirects = json["followRedirects"]?.boolValue ?? false
    }
}

/// What the script gets back: the status, the final URL (after redirects), the headers and
/// the body as text (invalid UTF-8 replaced).
public struct ScriptHTTPResponse: Sendable, Equatable {
    public var status: Int
    public var url: String
    public var headers: [ScriptHTTPRequest.Header]
    public var body: String

    public init(status: Int, url: String, headers: [ScriptHTTPRequest.Header], body: String) {
        self.status = status
        self.url = url
        self.headers = headers
        self.body = body
    }

    var json: JSONValue {
        .object([
            "status": .int(Int64(status)), "url": .string(url), "body": .string(body),
            "headers": .array(headers.map { .array([.string($0.name), .string($0.value)]) }),
        ])
    }
}

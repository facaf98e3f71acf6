import SwitchboardData

/// What the server lets hook scripts reach while they run. A script asks mid-call; the
/// answer comes within the call's budget. Either part may be missing (the `hooks test`
/// command has no store): scripts then get a clear error.
public struct ScriptServices: Sendable {
    /// The app's LeanStorage classes, `_Conversation` among them, for `AV.Object` and `AV.Query`.
    public var data: (any AppData)?
    public var http: (any ScriptHTTP)?

    public init(data: (any AppData)? = nil, http: (any ScriptHTTP)? = nil) {
        self.data = data
        self.http = http
    }
}

/// Outbound HTTP for `AV.Cloud.httpRequest` and `fetch`. The implementation decides which
/// hosts scripts may reach and how much of a response they get.
public protocol ScriptHTTP: Sendable {
    /// Performs `request`, giving up after `time`.
    func perform(_ request: ScriptHTTPRequest, within time: Duration) async throws -> ScriptHTTPResponse
}

import SwitchboardJSON

/// What the server lets hook scripts reach while they run. A script asks mid-call; the
/// answer comes within the call's budget. Either part may be missing (the `hooks test`
/// command has no store): scripts then get a clear error.
public struct ScriptServices: Sendable {
    public var conversations: (any ScriptConversations)?
    public var http: (any ScriptHTTP)?

    public init(conversations: (any ScriptConversations)? = nil, http: (any ScriptHTTP)? = nil) {
        self.conversations = conversations
        self.http = http
    }
}

/// `_Conversation`, as `new AV.Query('_Conversation')` asks for it. Read-only.
public protocol ScriptConversations: Sendable {
    /// Conversations matching a LeanCloud `where`, as LeanCloud's `_Conversation` objects.
    func conversations(where: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue]
}

/// Outbound HTTP for `AV.Cloud.httpRequest` and `fetch`. The implementation decides which
/// hosts scripts may reach and how much of a response they get.
public protocol ScriptHTTP: Sendable {
    /// Performs `request`, giving up after `time`.
    func perform(_ request: ScriptHTTPRequest, within time: Duration) async throws -> ScriptHTTPResponse
}

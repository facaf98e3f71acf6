import SwitchboardJSON

/// The answer to the blocking conversation hooks: reject, or (for `_conversationUpdate`)
/// replace the change.
public struct ConversationResult: HookResult, Equatable {
    public var reject: Bool
    public var code: Int32?
    public var detail: String?
    /// `_conversationUpdate` only: replaces `attr` (when the request changed attributes).
    public var attr: JSONValue?
    /// `_conversationUpdate` only: replaces `mute` (when the request muted or unmuted).
    public var mute: Bool?

    public init(reject: Bool = false, code: Int32? = nil, detail: String? = nil, attr: JSONValue? = nil, mute: Bool? = nil) {
        self.reject = reject
        self.code = code
        self.detail = detail
        self.attr = attr
        self.mute = mute
    }

    public static let passThrough = ConversationResult()

    public static func failedClosed(detail: String) -> ConversationResult {
        ConversationResult(reject: true, detail: detail)
    }

    public init(json: JSONValue) throws(HookResultError) {
        let object = try ResultField.object(json)
        if let attr = object["attr"], attr != .null, attr.objectValue == nil {
            throw HookResultError("attr must be an object")
        }
        self.init(
            reject: ResultField.truthy(object["reject"]),
            code: try ResultField.int32(object["code"], "code"),
            detail: try ResultField.string(object["detail"], "detail"),
            attr: object["attr"] == .null ? nil : object["attr"],
            mute: object["mute"].map { ResultField.truthy($0) }
        )
    }

    public var stopsChain: Bool { reject }
}

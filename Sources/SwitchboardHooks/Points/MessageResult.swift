import SwitchboardJSON

/// The answer to `_messageReceived` and `_messageUpdate`: drop the message, or change its
/// content or recipients.
public struct MessageResult: HookResult, Equatable {
    public var drop: Bool
    /// With `drop`: told to the sender as `appCode`. With `content`: the patch code the
    /// sender receives (positive; 1 when the hook gives none).
    public var code: Int32?
    public var detail: String?
    public var content: String?
    public var bin: Bool?
    public var toPeers: [String]?

    public init(drop: Bool = false, code: Int32? = nil, detail: String? = nil, content: String? = nil, bin: Bool? = nil, toPeers: [String]? = nil) {
        self.drop = drop
        self.code = code
        self.detail = detail
        self.content = content
        self.bin = bin
        self.toPeers = toPeers
    }

    public static let passThrough = MessageResult()

    public static func failedClosed(detail: String) -> MessageResult {
        MessageResult(drop: true, detail: detail)
    }

    public init(json: JSONValue) throws(HookResultError) {
        let object = try ResultField.object(json)
        self.init(
            drop: ResultField.truthy(object["drop"]),
            code: try ResultField.int32(object["code"], "code"),
            detail: try ResultField.string(object["detail"], "detail"),
            content: try ResultField.string(object["content"], "content"),
            bin: object["bin"].map { ResultField.truthy($0) },
            toPeers: try ResultField.strings(object["toPeers"], "toPeers")
        )
    }

    public var stopsChain: Bool { drop }
}

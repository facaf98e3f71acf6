import SwitchboardWire

/// A request that fails with one of LeanCloud's error codes. Handlers throw it; the
/// dispatcher turns it into the reply the SDKs expect (an `error` or a failed `ack`).
public struct CommandError: Error, Equatable, Sendable {
    public var code: ErrorCode
    public var detail: String?
    public var appCode: Int32?
    public var appMessage: String?

    public init(_ code: ErrorCode, detail: String? = nil, appCode: Int32? = nil, appMessage: String? = nil) {
        self.code = code
        self.detail = detail
        self.appCode = appCode
        self.appMessage = appMessage
    }
}

extension CommandError: CustomStringConvertible {
    /// `4301 CONVERSATION_API_FAILED: detail`, as logs and hook scripts read it.
    public var description: String {
        "\(code.rawValue) \(code.reason)" + (detail.map { ": \($0)" } ?? "")
    }
}

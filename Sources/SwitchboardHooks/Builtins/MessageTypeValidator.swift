import SwitchboardJSON

/// The built-in check of typed messages at `_messageReceived` and `_messageUpdate`:
/// LeanCloud's own types must carry their required fields, application types (positive
/// `_lctype`) must be declared in the config with theirs. A message that fails is refused
/// with 4402 and one of the `appCode`s below. Untyped content and binary pass.
public struct MessageTypeValidator: HookHandler {
    public struct Settings: Sendable, Equatable {
        /// Application types and the fields each requires, as dotted paths
        /// (`_lcattrs.orderId`).
        public var declaredTypes: [Int: [String]]

        public init(declaredTypes: [Int: [String]] = [:]) {
            self.declaredTypes = declaredTypes
        }
    }

    /// `appCode`s of a refusal.
    public enum Refusal: Int32 {
        /// `_lctype` is not an integer, or the client sent a recalled message (-127).
        case malformed = 9001
        /// A positive type the config does not declare, or an unknown negative one.
        case undeclaredType = 9002
        case missingField = 9003
    }

    /// The fields LeanCloud's SDKs always fill for their own types.
    static let builtinRequirements: [Int: [String]] = [
        -1: ["_lctext"],
        -2: ["_lcfile.url"], -3: ["_lcfile.url"], -4: ["_lcfile.url"], -6: ["_lcfile.url"],
        -5: ["_lcloc.latitude", "_lcloc.longitude"],
    ]

    public let name = "message-types"
    public let kind = "builtin"
    /// Ahead of the keyword filter: a refused message needs no filtering.
    public let priority = 1100
    public let version = "1"
    public let budget: Duration? = nil
    public let failurePolicy: FailurePolicy? = nil
    public let points: Set<HookPoint> = [.messageReceived, .messageUpdate]
    public let enforcesBudget = true
    public let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }

    public func handle<Request: HookRequest>(_ request: Request) async throws -> Request.Result {
        let refusal: MessageResult? = switch request {
        case let received as MessageReceivedRequest: check(received.content, bin: received.bin)
        case let update as MessageUpdateRequest where !update.recall: check(update.content, bin: update.bin)
        default: nil
        }
        return (refusal as? Request.Result) ?? .passThrough
    }

    /// A drop saying what is wrong, or nil when the content may go.
    func check(_ content: String, bin: Bool) -> MessageResult? {
        guard !bin, content.first == "{", case .object(let typed)? = try? JSONValue(parsing: content), let type = typed["_lctype"] else {
            return nil
        }
        guard let number = type.int64Value, let lctype = Int(exactly: number), lctype != -127 else {
            return Self.refuse(.malformed, "_lctype must be an integer type a client may send")
        }
        guard lctype != 0 else { return nil }
        guard let required = lctype < 0 ? Self.builtinRequirements[lctype] : settings.declaredTypes[lctype] else {
            return Self.refuse(.undeclaredType, "message type \(lctype) is not declared")
        }
        for path in required where Self.value(at: path, in: .object(typed)).map(Self.isPresent) != true {
            return Self.refuse(.missingField, "message type \(lctype) needs \(path)")
        }
        return nil
    }

    private static func refuse(_ refusal: Refusal, _ detail: String) -> MessageResult {
        MessageResult(drop: true, code: refusal.rawValue, detail: detail)
    }

    private static func value(at path: String, in json: JSONValue) -> JSONValue? {
        path.split(separator: ".").reduce(json as JSONValue?) { current, key in current?[String(key)] }
    }

    private static func isPresent(_ value: JSONValue) -> Bool {
        switch value {
        case .null: false
        case .string(let text): !text.isEmpty
        default: true
        }
    }
}

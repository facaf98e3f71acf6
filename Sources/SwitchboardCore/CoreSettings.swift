/// The knobs of the messaging core, filled from the server's config file.
public struct CoreSettings: Sendable {
    public var appID: String
    public var masterKey: String
    /// Whether `session/open`, `conv/start`, `conv/add` and `conv/remove` must be signed.
    public var signaturesRequired: Bool
    /// Signatures older than this (seconds) are refused.
    public var signatureMaxAge: Int64
    /// One-to-one and group conversations invisible to non-members, joined only by
    /// invitation or with a signature (LeanCloud lets anyone find and join them).
    public var privateConversations: Bool
    /// Largest message content accepted, in bytes (LeanCloud: 5 KB).
    public var maxContentBytes: Int
    /// Largest `limit` a history query may ask for.
    public var maxHistoryLimit: Int
    /// How long a delivered message may stay unacknowledged before it is sent again (seconds).
    public var redeliveryInterval: Int64
    /// Most messages sent to a client in one go at login or redelivery; the rest follow at
    /// the next redelivery round.
    public var deliveryBatch: Int
    /// Default and longest life of a temporary conversation (seconds).
    public var temporaryConversationTTL: Int32
    public var maxTemporaryConversationTTL: Int32
    /// Most members a conversation may have.
    public var maxMembers: Int
    /// Whether senders may edit (`patch/modify`) and recall their messages.
    public var editingAllowed: Bool
    public var recallAllowed: Bool
    /// How long after sending a message may still be edited or recalled (seconds); nil for
    /// no limit.
    public var editWindow: Int64?
    /// At login a client receives at most this many missed messages per conversation (the
    /// newest); its unread notification counts them all. nil for no limit.
    public var offlineMessagesPerConversation: Int?
    /// The push payload when neither a hook nor the sender gives one: JSON with
    /// `${convId}`, `${timestamp}` and `${fromClientId}` filled in.
    public var pushTemplate: String

    public init(
        appID: String,
        masterKey: String,
        signaturesRequired: Bool = false,
        signatureMaxAge: Int64 = 21_600,
        privateConversations: Bool = false,
        maxContentBytes: Int = 5120,
        maxHistoryLimit: Int = 1000,
        redeliveryInterval: Int64 = 30,
        deliveryBatch: Int = 500,
        temporaryConversationTTL: Int32 = 86_400,
        maxTemporaryConversationTTL: Int32 = 30 * 86_400,
        maxMembers: Int = 500,
        editingAllowed: Bool = true,
        recallAllowed: Bool = true,
        editWindow: Int64? = nil,
        offlineMessagesPerConversation: Int? = 20,
        pushTemplate: String = PushPayload.defaultTemplate
    ) {
        self.appID = appID
        self.masterKey = masterKey
        self.signaturesRequired = signaturesRequired
        self.signatureMaxAge = signatureMaxAge
        self.privateConversations = privateConversations
        self.maxContentBytes = maxContentBytes
        self.maxHistoryLimit = maxHistoryLimit
        self.redeliveryInterval = redeliveryInterval
        self.deliveryBatch = deliveryBatch
        self.temporaryConversationTTL = temporaryConversationTTL
        self.maxTemporaryConversationTTL = maxTemporaryConversationTTL
        self.maxMembers = maxMembers
        self.editingAllowed = editingAllowed
        self.recallAllowed = recallAllowed
        self.editWindow = editWindow
        self.offlineMessagesPerConversation = offlineMessagesPerConversation
        self.pushTemplate = pushTemplate
    }
}

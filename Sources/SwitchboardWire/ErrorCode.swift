/// LeanCloud's realtime error codes. The numbers are part of the protocol: SDKs and apps
/// switch on them, so they never change.
public enum ErrorCode: Int32, Sendable, CaseIterable {
    case appNotAvailable = 4100
    case signatureFailed = 4102
    case invalidLogin = 4103
    case sessionRequired = 4105
    case readTimeout = 4107
    case loginTimeout = 4108
    case frameTooLong = 4109
    case sessionConflict = 4111
    case sessionTokenExpired = 4112
    case unparseableRawMessage = 4114
    case kickedByApp = 4115

    case internalError = 4200
    case sendMessageTimeout = 4201

    case conversationAPIFailed = 4301
    case conversationSignatureFailed = 4302
    case conversationNotFound = 4303
    case conversationFull = 4304
    case conversationRejectedByApp = 4305
    case conversationUpdateFailed = 4306
    case conversationReadOnly = 4307
    case conversationNotAllowed = 4308
    case conversationUpdateRejected = 4309
    case conversationLogRejected = 4312
    case transientConversationRequired = 4316
    case conversationMembershipRequired = 4317
    case conversationOperationUnauthorized = 4320
    case temporaryConversationExpired = 4323
    case conversationNeedOwner = 4324

    case invalidMessagingTarget = 4401
    case messageRejectedByApp = 4402
    case messageOwnershipRequired = 4403
    case messageNotFound = 4404
    case messageUpdateRejectedByApp = 4405
    case messageEditDisabled = 4406
    case messageRecallDisabled = 4407
    case messageModifiedByCensorship = 4408

    case blockedByConversation = 4548
    case silenced = 4563

    /// The reason string LeanCloud sends with the code.
    public var reason: String {
        switch self {
        case .appNotAvailable: "APP_NOT_AVAILABLE"
        case .signatureFailed: "SIGNATURE_FAILED"
        case .invalidLogin: "INVALID_LOGIN"
        case .sessionRequired: "SESSION_REQUIRED"
        case .readTimeout: "READ_TIMEOUT"
        case .loginTimeout: "LOGIN_TIMEOUT"
        case .frameTooLong: "FRAME_TOO_LONG"
        case .sessionConflict: "SESSION_CONFLICT"
        case .sessionTokenExpired: "SESSION_TOKEN_EXPIRED"
        case .unparseableRawMessage: "UNPARSEABLE_RAW_MESSAGE"
        case .kickedByApp: "KICKED_BY_APP"
        case .internalError: "INTERNAL_ERROR"
        case .sendMessageTimeout: "SEND_MESSAGE_TIMEOUT"
        case .conversationAPIFailed: "CONVERSATION_API_FAILED"
        case .conversationSignatureFailed: "CONVERSATION_SIGNATURE_FAILED"
        case .conversationNotFound: "CONVERSATION_NOT_FOUND"
        case .conversationFull: "CONVERSATION_FULL"
        case .conversationRejectedByApp: "CONVERSATION_REJECTED_BY_APP"
        case .conversationUpdateFailed: "CONVERSATION_UPDATE_FAILED"
        case .conversationReadOnly: "CONVERSATION_READ_ONLY"
        case .conversationNotAllowed: "CONVERSATION_NOT_ALLOWED"
        case .conversationUpdateRejected: "CONVERSATION_UPDATE_REJECTED"
        case .conversationLogRejected: "CONVERSATION_LOG_REJECTED"
        case .transientConversationRequired: "TRANSIENT_CONVERSATION_REQUIRED"
        case .conversationMembershipRequired: "CONVERSATION_MEMBERSHIP_REQUIRED"
        case .conversationOperationUnauthorized: "CONVERSATION_OPERATION_UNAUTHORIZED"
        case .temporaryConversationExpired: "TEMPORARY_CONVERSATION_EXPIRED"
        case .conversationNeedOwner: "CONVERSATION_NEED_OWNER"
        case .invalidMessagingTarget: "INVALID_MESSAGING_TARGET"
        case .messageRejectedByApp: "MESSAGE_REJECTED_BY_APP"
        case .messageOwnershipRequired: "MESSAGE_OWNERSHIP_REQUIRED"
        case .messageNotFound: "MESSAGE_NOT_FOUND"
        case .messageUpdateRejectedByApp: "MESSAGE_UPDATE_REJECTED_BY_APP"
        case .messageEditDisabled: "MESSAGE_EDIT_DISABLED"
        case .messageRecallDisabled: "MESSAGE_RECALL_DISABLED"
        case .messageModifiedByCensorship: "MESSAGE_MODIFIED_BY_CENSORSHIP"
        case .blockedByConversation: "BLOCKED_BY_CONV"
        // LeanCloud's spelling, which apps may match.
        case .silenced: "SILIENCED"
        }
    }
}

/// What a failing or timed-out handler means for the request.
public enum FailurePolicy: String, Sendable, Codable, Equatable {
    /// Ignore the failure; the request goes on as if the handler had passed it through.
    case open
    /// Refuse the request (drop the message, reject the conversation change).
    case closed
}

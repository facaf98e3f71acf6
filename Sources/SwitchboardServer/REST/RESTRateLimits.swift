/// How many REST requests of each class the app may make, per minute and per UTC day, as
/// LeanCloud limits its IM REST API ("接口请求频率限制"); 0 is no limit. The defaults are
/// LeanCloud's.
public struct RESTRateLimits: Sendable, Equatable {
    /// Messages sent, edited and recalled in conversations and chat rooms, and a system
    /// conversation's messages to chosen clients (LeanCloud allows up to 9000 when bought).
    public var messagesPerMinute = 1800
    /// Broadcasts to a system conversation's subscribers, with their edits and recalls.
    public var subscriberBroadcastsPerMinute = 30
    public var subscriberBroadcastsPerDay = 1000
    /// App-wide broadcasts (`POST /1.2/rtm/broadcasts`).
    public var broadcastsPerMinute = 10
    public var broadcastsPerDay = 30

    public init() {}

    /// The limits of a class: per minute, per day.
    func limits(of rateClass: RESTRateClass) -> (perMinute: Int, perDay: Int) {
        switch rateClass {
        case .messages: (messagesPerMinute, 0)
        case .subscriberBroadcasts: (subscriberBroadcastsPerMinute, subscriberBroadcastsPerDay)
        case .broadcasts: (broadcastsPerMinute, broadcastsPerDay)
        }
    }
}

/// The requests that share one of LeanCloud's REST quotas.
enum RESTRateClass: String, Sendable, CaseIterable {
    case messages
    case subscriberBroadcasts = "subscriber_broadcasts"
    case broadcasts
}

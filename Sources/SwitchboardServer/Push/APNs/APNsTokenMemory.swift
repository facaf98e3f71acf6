import Synchronization

/// What APNs taught this server about device tokens, kept in memory (a restart learns it
/// again, at the cost of one refused push per token):
/// - the environment a token turned out to belong to, when its push's `_profile` named the
///   other one (a development build's token sent to production, or the reverse), so that
///   later pushes go there at once;
/// - the tokens APNs called `DeviceTokenNotForTopic`: another app's (a second app of the
///   same LeanCloud app, say), not dead, but never to be pushed this topic's pushes.
final class APNsTokenMemory: Sendable {
    private struct State {
        var environments: [String: APNsEnvironment] = [:]
        var notForTopic: Set<TopicToken> = []
    }

    private struct TopicToken: Hashable {
        var topic: String
        var token: String
    }

    private let state = Mutex(State())

    func environment(of token: String) -> APNsEnvironment? {
        state.withLock { $0.environments[token] }
    }

    func remember(_ environment: APNsEnvironment, of token: String) {
        state.withLock { $0.environments[token] = environment }
    }

    /// Whether this is news (for logging it once).
    func markNotForTopic(_ token: String, topic: String) -> Bool {
        state.withLock { $0.notForTopic.insert(TopicToken(topic: topic, token: token)).inserted }
    }

    func isNotForTopic(_ token: String, topic: String) -> Bool {
        state.withLock { $0.notForTopic.contains(TopicToken(topic: topic, token: token)) }
    }
}

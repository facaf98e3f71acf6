import Logging
import ServiceLifecycle
import SwitchboardHooks

/// Reloads the keyword filter's word list as its file changes.
struct KeywordListService: Service {
    let filter: KeywordFilter?
    let logger: Logger

    func run() async throws {
        guard let filter else { return }
        do {
            try await cancelWhenGracefulShutdown { try await filter.watch() }
        } catch is CancellationError {
        } catch {
            logger.error("the keyword list will not reload: cannot watch its folder", metadata: ["error": "\(error)"])
        }
    }
}

import Foundation
import Logging
import ServiceLifecycle
import SwitchboardJS

/// Loads the hook scripts before the server serves, then reloads them as their files change.
struct ScriptService: Service {
    let library: ScriptLibrary
    let logger: Logger

    /// Loads every script now; the server starts even if some fail (they are reported).
    func loadAll() async {
        guard FileManager.default.fileExists(atPath: library.settings.directory) else {
            logger.notice("no hooks folder; no scripts loaded", metadata: ["folder": "\(library.settings.directory)"])
            return
        }
        await library.loadAll()
    }

    func run() async throws {
        guard FileManager.default.fileExists(atPath: library.settings.directory) else { return }
        do {
            try await cancelWhenGracefulShutdown { try await library.watch() }
        } catch is CancellationError {
        } catch {
            logger.error("hook scripts will not reload: cannot watch their folder", metadata: ["error": "\(error)"])
        }
    }
}

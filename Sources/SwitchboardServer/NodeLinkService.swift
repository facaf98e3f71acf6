import Logging
import ServiceLifecycle
import SwitchboardCore
import SwitchboardStore

/// Connects this node to the others on the same PostgreSQL database while the server
/// runs, and takes it out of the cluster's tables when it stops.
struct NodeLinkService: Service {
    let link: PostgresNodeLink
    let core: MessagingCore
    let logger: Logger

    func run() async throws {
        logger.notice("joined the cluster", metadata: ["node": "\(link.nodeID)"])
        do {
            try await cancelWhenGracefulShutdown { [link, core] in
                try await link.run(
                    sessions: { core.presence.allSessions },
                    receive: { await core.receive($0) },
                    // Deliveries relayed during the break were missed; the store has them.
                    reconnected: { await core.redeliverUnacknowledged() },
                    orphanedWill: { core.sendOrphanedWill($0) }
                )
            }
        } catch {
            // Cancelled by the shutdown: the way it always ends.
            guard Task.isShuttingDownGracefully else { throw error }
        }
        await link.sendWaiting()
        await link.leave()
    }
}

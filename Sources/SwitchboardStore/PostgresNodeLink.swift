import Foundation
import Logging
import Metrics
import PostgresNIO
import Synchronization
import SwitchboardCore
import SwitchboardData

/// `NodeLink` over the PostgreSQL database the nodes share. Relays go out with `NOTIFY` on
/// one channel that every node listens on, in the order they were published; one too long
/// for a notification goes in the `relay` table and only its id is notified. Each node
/// keeps a row in `node`, refreshed every `heartbeat`, and a row in `client_session` for
/// each session it holds; a node not seen for three heartbeats (killed, or cut off) counts
/// as gone, and so do its sessions. The first node to notice sends the will messages it
/// kept in `will`.
public final class PostgresNodeLink: NodeLink {
    /// This node's name in `node`, on its relays and in its metrics: the host's name and a
    /// part new at every start (a restarted node is another node to the others).
    public let nodeID: String
    private let store: PostgresStore
    private let counters: Counters
    private let listening: PostgresConnection.Configuration
    private let logger: Logger
    private let outgoing = Mutex<[String]>([])
    private let outgoingSignal: AsyncStream<Void>
    private let signalOutgoing: AsyncStream<Void>.Continuation
    private let published = Atomic<UInt64>(0)
    /// Connections that hold conversation locks, apart from the store's: a change holds
    /// one while it reads and writes through the store's, so sharing a pool could leave
    /// every connection held by a change waiting for another.
    private let lockHolders: PostgresClient

    static let channel = "switchboard_relay"
    private let heartbeat: Duration
    /// Milliseconds after its last heartbeat that a node counts as gone.
    private let expiry: Int64
    /// Now on the database's clock, in milliseconds: the nodes' own clocks may disagree, and
    /// one ahead would take the others for gone.
    static let databaseNow = "(extract(epoch from clock_timestamp()) * 1000)::bigint"
    /// When the listening connection last heard anything (this node's clock); every node
    /// notifies at each heartbeat, so silence means the connection is dead.
    private let lastHeard = Atomic<Int64>(SystemWallClock().now())
    private let listeningConnection = Mutex<PostgresConnection?>(nil)
    /// Ends once the node first listens (see `waitUntilListening`).
    private let firstListen: AsyncStream<Void>
    private let startedListening: AsyncStream<Void>.Continuation
    /// PostgreSQL refuses a notification payload of 8000 bytes or more.
    static let maxNotifyBytes = 7_900
    /// A relay too long to notify is kept this long (milliseconds) for the nodes to read.
    static let keepLongRelays: Int64 = 60_000

    /// Relays this node published, received from the others, and failed to publish.
    public struct Counters: Sendable {
        public var published: Counter
        public var received: Counter
        public var lost: Counter

        public init(published: Counter, received: Counter, lost: Counter) {
            self.published = published
            self.received = received
            self.lost = lost
        }
    }

    /// Joins the nodes on the database at `url` (that `store` uses), beating every
    /// `heartbeat`; `run` keeps it a member.
    public init(store: PostgresStore, url: String, heartbeat: Duration, counters: Counters, logger: Logger) async throws {
        nodeID = ProcessInfo.processInfo.hostName + "-" + UUID().uuidString.prefix(8).lowercased()
        self.store = store
        self.counters = counters
        self.heartbeat = heartbeat
        expiry = 3 * Int64(heartbeat / .milliseconds(1))
        listening = try PostgresConnectionSettings.connectionConfiguration(url: url)
        var locking = try PostgresConnectionSettings.configuration(url: url)
        locking.options.maximumConnections = Self.lockConnections
        lockHolders = PostgresClient(configuration: locking, backgroundLogger: logger)
        self.logger = logger
        (outgoingSignal, signalOutgoing) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (firstListen, startedListening) = AsyncStream.makeStream(of: Void.self)
        // Before any session or will of this node is registered: the others would take
        // those of a node without a row for a dead node's.
        try await refreshNode()
    }

    /// What goes over the channel: the relay, who sent it, and a count that keeps two equal
    /// relays apart (PostgreSQL folds equal payloads of one transaction into one).
    struct Envelope: Codable {
        var node: String
        var number: UInt64
        var relay: Relay
    }

    public func publish(_ relay: @autoclosure () -> Relay) {
        let envelope = Envelope(node: nodeID, number: published.add(1, ordering: .relaxed).newValue, relay: relay())
        guard let json = try? JSONEncoder().encode(envelope) else { return }
        let queued = outgoing.withLock { outgoing in
            guard outgoing.count < Self.maxQueued else { return false }
            outgoing.append(String(decoding: json, as: UTF8.self))
            return true
        }
        guard queued else {
            counters.lost.increment()
            return
        }
        signalOutgoing.yield()
    }

    // MARK: Running

    /// Until cancelled: keeps this node's row fresh, sends what is published, and hands
    /// `receive` what the other nodes relay, in their order. `reconnected` runs when the
    /// listening connection is back after a break, in which relays may have been missed.
    /// `sessions` lists the sessions held here, which each heartbeat writes to
    /// `client_session` again (a row a race left behind, or that went with a row of this node
    /// the others took for gone, lasts one heartbeat). `orphanedWill` sends the will of a
    /// client of a node that is gone.
    public func run(
        sessions: @escaping @Sendable () -> [Presence.Session],
        receive: @escaping @Sendable (Relay) async -> Void,
        reconnected: @escaping @Sendable () async -> Void,
        orphanedWill: @escaping @Sendable (RelayedDelivery) async -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.lockHolders.run() }
            group.addTask { try await self.beat(sessions: sessions, orphanedWill: orphanedWill) }
            group.addTask { await self.sendPublished() }
            group.addTask { await self.listen(receive: receive, reconnected: reconnected) }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Returns once this node listens to the others, or after `limit`: a node serving
    /// before would miss what is relayed to its first clients. One caller only.
    public func waitUntilListening(limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in self.firstListen {} }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Takes this node, its sessions and its wills out of the tables (at shutdown: the wills
    /// were sent as the connections closed, or the clients were kicked).
    public func leave() async {
        do {
            try await store.transaction { connection in
                try await connection.query("DELETE FROM will WHERE node = \(nodeID)", logger: logger)
                try await connection.query("DELETE FROM node WHERE id = \(nodeID)", logger: logger)
            }
        } catch {
            logger.error("node not removed from the cluster table", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    private func beat(sessions: @Sendable () -> [Presence.Session], orphanedWill: @Sendable (RelayedDelivery) async -> Void) async throws {
        var next = ContinuousClock.now
        while true {
            // On the beat, however long the last one's work took: a busy database must not
            // stretch the gaps until the others take this node for gone.
            next = max(next + heartbeat, ContinuousClock.now)
            try await Task.sleep(until: next, clock: .continuous)
            do {
                try await refreshNode()
                try await register(sessions())
                try await store.run("SELECT pg_notify(\(Self.channel), \(Self.pingPrefix + nodeID))")
                try await store.run("DELETE FROM node WHERE expires_at < \(unescaped: Self.databaseNow)")
                try await store.run("DELETE FROM relay WHERE created_at < \(unescaped: Self.databaseNow) - \(Self.keepLongRelays)")
                try await store.run("DELETE FROM nonce WHERE expires_at <= \(SystemWallClock().now() / 1000)")
                for will in try await claimOrphanedWills() { await orphanedWill(will) }
            } catch {
                logger.error("cluster heartbeat failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            if SystemWallClock().now() - lastHeard.load(ordering: .relaxed) > expiry {
                // Half-open: nothing arrives, not even the heartbeats' notifications.
                logger.error("the listening connection has heard nothing for three heartbeats; reconnecting")
                listeningConnection.withLock { $0 }?.close().whenComplete { _ in }
                lastHeard.store(SystemWallClock().now(), ordering: .relaxed)
            }
        }
    }

    /// Marks this node alive for three heartbeats more.
    private func refreshNode() async throws {
        try await store.run("""
            INSERT INTO node (id, expires_at) VALUES (\(nodeID), \(unescaped: Self.databaseNow) + \(expiry))
            ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at
            """)
    }

    /// A session as `client_session` names it.
    private struct SessionRow: Hashable {
        var clientID: String
        var connectionID: Int64

        init(clientID: String, connectionID: Int64) {
            self.clientID = clientID
            self.connectionID = connectionID
        }

        init(_ session: Presence.Session) {
            self.init(clientID: session.device.clientID, connectionID: Int64(bitPattern: session.connection.id))
        }
    }

    /// This node's rows of `client_session` as the previous heartbeat read them.
    private let rowsAtLastBeat = Mutex<Set<SessionRow>>([])

    /// Brings this node's rows of `client_session` in line with `sessions`, the sessions it
    /// holds. A row left behind (its delete raced its insert) goes if it was already there
    /// at the previous heartbeat; a younger row may belong to a session opened since
    /// `sessions` was taken. Sessions without a row (gone with this node's row while the
    /// others took it for gone) get one.
    private func register(_ sessions: [Presence.Session]) async throws {
        let rows = sessions.map(SessionRow.init)
        let stale = rowsAtLastBeat.withLock { $0 }.subtracting(rows)
        if !stale.isEmpty {
            try await store.run("""
                DELETE FROM client_session WHERE node = \(nodeID)
                    AND (client_id, connection_id) IN (SELECT * FROM unnest(\(stale.map(\.clientID))::text[], \(stale.map(\.connectionID))::bigint[]))
                """)
        }
        try await store.run("""
            INSERT INTO client_session (node, client_id, connection_id, tag)
            SELECT \(nodeID), client, connection, NULLIF(tag, '')
            FROM unnest(\(rows.map(\.clientID))::text[], \(rows.map(\.connectionID))::bigint[], \(sessions.map { $0.tag ?? "" })::text[])
                AS held(client, connection, tag)
            ON CONFLICT (node, client_id, connection_id) DO NOTHING
            """)
        let registered = try await store.all("SELECT client_id, connection_id FROM client_session WHERE node = \(nodeID)")
        let read = Set(registered.compactMap { row in
            row.string("client_id").flatMap { client in row.int64("connection_id").map { SessionRow(clientID: client, connectionID: $0) } }
        })
        rowsAtLastBeat.withLock { $0 = read }
    }

    /// What a heartbeat notifies, before the node's id.
    static let pingPrefix = "!"

    // MARK: Signature nonces

    public func useNonce(_ nonce: String, until expiry: Int64, now: Int64) async throws -> Bool {
        let fresh = try await store.all("""
            INSERT INTO nonce (value, expires_at) VALUES (\(nonce), \(expiry))
            ON CONFLICT (value) DO UPDATE SET expires_at = excluded.expires_at WHERE nonce.expires_at <= \(now)
            RETURNING value
            """)
        return !fresh.isEmpty
    }

    // MARK: Will messages

    public func keepWill(_ will: RelayedDelivery, of clientID: String) async {
        await attempt("will message not kept for other nodes", client: clientID) {
            let delivery = String(decoding: try JSONEncoder().encode(will), as: UTF8.self)
            try await store.run("""
                INSERT INTO will (client_id, node, delivery) VALUES (\(clientID), \(nodeID), \(delivery))
                ON CONFLICT (client_id, node) DO UPDATE SET delivery = excluded.delivery
                """)
        }
    }

    public func dropWill(of clientID: String) async {
        await attempt("will message not withdrawn for other nodes", client: clientID) {
            try await store.run("DELETE FROM will WHERE client_id = \(clientID) AND node = \(nodeID)")
        }
    }

    /// Takes the wills of nodes that are gone; each goes to one node only.
    private func claimOrphanedWills() async throws -> [RelayedDelivery] {
        let rows = try await store.all("DELETE FROM will w WHERE NOT EXISTS (SELECT 1 FROM node n WHERE n.id = w.node) RETURNING delivery")
        return rows.compactMap { row in
            row.string("delivery").flatMap { try? JSONDecoder().decode(RelayedDelivery.self, from: Data($0.utf8)) }
        }
    }

    // MARK: Publishing

    private func sendPublished() async {
        for await _ in outgoingSignal {
            await sendWaiting()
        }
    }

    /// Sends what was published and has not gone out yet: while running, and once more when
    /// `run` has ended (at shutdown, what the last closing connections caused).
    public func sendWaiting() async {
        let batch = outgoing.withLock { batch in
            defer { batch = [] }
            return batch
        }
        guard !batch.isEmpty else { return }
        do {
            try await notify(batch)
            counters.published.increment(by: Int64(batch.count))
        } catch {
            counters.lost.increment(by: Int64(batch.count))
            logger.error("relays to other nodes lost", metadata: ["count": "\(batch.count)", "error": "\(String(reflecting: error))"])
        }
    }

    /// Notifies `payloads` in order, in statements of up to `perStatement`.
    private func notify(_ payloads: [String]) async throws {
        var notified: [String] = []
        for payload in payloads {
            notified.append(payload.utf8.count < Self.maxNotifyBytes ? payload : try await keepLong(payload))
        }
        for start in stride(from: 0, to: notified.count, by: Self.perStatement) {
            let chunk = notified[start..<min(start + Self.perStatement, notified.count)]
            var binds = PostgresBindings()
            binds.append(Self.channel)
            for payload in chunk { binds.append(payload) }
            let calls = (2...chunk.count + 1).map { "pg_notify($1, $\($0))" }.joined(separator: ", ")
            try await store.run(PostgresQuery(unsafeSQL: "SELECT " + calls, binds: binds))
        }
    }

    static let perStatement = 64
    /// Relays waiting to go out at most; more while the database does not take them are
    /// dropped (and counted), rather than fill this node's memory.
    static let maxQueued = 100_000

    struct RelayNotKept: Error {}

    /// Stores a relay too long to notify; returns what to notify instead: `#` and its id.
    private func keepLong(_ payload: String) async throws -> String {
        let rows = try await store.all("INSERT INTO relay (body, created_at) VALUES (\(payload), \(unescaped: Self.databaseNow)) RETURNING id")
        guard let id = rows.first?.int64("id") else { throw RelayNotKept() }
        return "#\(id)"
    }

    // MARK: Listening

    private func listen(receive: @Sendable (Relay) async -> Void, reconnected: @Sendable () async -> Void) async {
        var connectedBefore = false
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: listening, id: 0, logger: logger)
                listeningConnection.withLock { $0 = connection }
                lastHeard.store(SystemWallClock().now(), ordering: .relaxed)
                do {
                    try await connection.listen(on: Self.channel) { notifications in
                        startedListening.finish()
                        if connectedBefore {
                            logger.notice("listening to the other nodes again")
                            await reconnected()
                        }
                        connectedBefore = true
                        for try await notification in notifications {
                            lastHeard.store(SystemWallClock().now(), ordering: .relaxed)
                            guard !notification.payload.hasPrefix(Self.pingPrefix) else { continue }
                            await handle(notification.payload, receive: receive)
                        }
                    }
                } catch {
                    if !Task.isCancelled { logger.error("listening to the other nodes stopped", metadata: ["error": "\(String(reflecting: error))"]) }
                }
                listeningConnection.withLock { $0 = nil }
                try? await connection.close()
            } catch {
                logger.error("cannot listen to the other nodes", metadata: ["error": "\(String(reflecting: error))"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func handle(_ payload: String, receive: @Sendable (Relay) async -> Void) async {
        var body = payload
        if payload.hasPrefix("#"), let id = Int64(payload.dropFirst()) {
            do {
                guard let kept = try await store.all("SELECT body FROM relay WHERE id = \(id)").first?.string("body") else {
                    logger.error("relay gone before it was read", metadata: ["relay": "\(id)"])
                    return
                }
                body = kept
            } catch {
                logger.error("relay not read", metadata: ["relay": "\(id)", "error": "\(String(reflecting: error))"])
                return
            }
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body.utf8)) else {
            logger.error("undecodable relay from another node", metadata: ["payload": "\(body.prefix(200))"])
            return
        }
        guard envelope.node != nodeID else { return }
        counters.received.increment()
        await receive(envelope.relay)
    }

    // MARK: Conversation locks

    /// Conversations changed at once on one node, at most (others wait for a connection).
    static let lockConnections = 4
    /// The first key of PostgreSQL's two-key advisory locks that conversation locks use.
    static let conversationLocks: Int32 = 7_306_459

    public func exclusively<Value: Sendable>(conversation id: String, _ change: () async throws -> Value) async throws -> Value {
        let unlock: PostgresQuery = "SELECT pg_advisory_unlock(\(Self.conversationLocks), hashtext(\(id)))"
        return try await lockHolders.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(Self.conversationLocks), hashtext(\(id)))", logger: logger)
            let value: Value
            do {
                value = try await change()
            } catch {
                // Should this fail too, the connection is broken, and its locks went with it.
                _ = try? await connection.query(unlock, logger: logger)
                throw error
            }
            try await connection.query(unlock, logger: logger)
            return value
        }
    }

    // MARK: Presence

    /// The sessions (`s`) of the nodes alive, to select from.
    static let liveSessions = "client_session s JOIN node n ON n.id = s.node AND n.expires_at >= \(databaseNow)"

    public func onlineElsewhere(_ clientIDs: [String]) async -> Set<String> {
        await clientsElsewhere(
            "SELECT DISTINCT s.client_id FROM \(unescaped: Self.liveSessions) WHERE s.client_id = ANY(\(clientIDs)) AND s.node <> \(nodeID)"
        )
    }

    public func everyoneOnlineElsewhere() async -> Set<String> {
        await clientsElsewhere("SELECT DISTINCT s.client_id FROM \(unescaped: Self.liveSessions) WHERE s.node <> \(nodeID)")
    }

    /// The `client_id`s `query` answers; none if the database cannot be asked.
    private func clientsElsewhere(_ query: PostgresQuery) async -> Set<String> {
        do {
            return Set(try await store.all(query).compactMap { $0.string("client_id") })
        } catch {
            // Counted offline: pushed to, which is better than missing a message.
            logger.error("sessions on other nodes unknown", metadata: ["error": "\(String(reflecting: error))"])
            return []
        }
    }

    public func holdsTagElsewhere(_ clientID: String, tag: String, loggedInAfter order: Int64?) async -> Bool {
        do {
            let rows = try await store.all("""
                SELECT 1 AS held FROM \(unescaped: Self.liveSessions)
                WHERE s.client_id = \(clientID) AND s.tag = \(tag) AND s.node <> \(nodeID)
                    AND (\(order)::BIGINT IS NULL OR s.login_order > \(order)) LIMIT 1
                """)
            return !rows.isEmpty
        } catch {
            logger.error("sessions on other nodes unknown", metadata: ["error": "\(String(reflecting: error))"])
            return false
        }
    }

    public func sessionOpened(_ session: Presence.Session) async -> Int64? {
        let row = SessionRow(session)
        var order: Int64?
        await attempt("session not registered for other nodes", client: row.clientID) {
            order = try await store.all("""
                INSERT INTO client_session (node, client_id, connection_id, tag) VALUES (\(nodeID), \(row.clientID), \(row.connectionID), \(session.tag))
                ON CONFLICT (node, client_id, connection_id) DO UPDATE SET tag = excluded.tag
                RETURNING login_order
                """).first?.int64("login_order")
        }
        return order
    }

    public func sessionClosed(_ session: Presence.Session) async {
        let row = SessionRow(session)
        await attempt("session not unregistered for other nodes", client: row.clientID) {
            try await store.run(
                "DELETE FROM client_session WHERE node = \(nodeID) AND client_id = \(row.clientID) AND connection_id = \(row.connectionID)"
            )
        }
    }

    /// Runs `work`, logging `failure` if it fails: the others see this node's sessions and
    /// wills a moment late (the next heartbeat's reconciliation, the next will), and the
    /// client's own request goes on.
    private func attempt(_ failure: String, client clientID: String, _ work: () async throws -> Void) async {
        do {
            try await work()
        } catch {
            logger.error("\(failure)", metadata: ["client": "\(clientID)", "error": "\(String(reflecting: error))"])
        }
    }
}

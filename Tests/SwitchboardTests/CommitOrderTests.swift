import SwitchboardCore
import SwitchboardWire
import Testing

/// On PostgreSQL each message is stored in a transaction of its own, so one message can take
/// its `seq` before another of another conversation and commit after it: a login in between
/// sees the later one only. Within one conversation they commit in `seq` order, which a
/// device's position there relies on.
@Suite(.enabled(if: TestDatabase.usesPostgres, "needs PostgreSQL"))
struct CommitOrderTests {
    @Test func aMessageCommittedAfterItsReceiverLoggedInArrivesWithoutWaitingForRedelivery() async throws {
        // Redelivery far off, so that only live delivery can bring the slow message in time.
        let server = try await TestServer.start { $0.redeliverySeconds = 600 }
        // The message whose text says SLOW holds its transaction open after taking its seq.
        for statement in [
            """
            CREATE FUNCTION hold_slow_message() RETURNS trigger AS $$
            BEGIN IF NEW.text LIKE '%SLOW%' THEN PERFORM pg_sleep(3); END IF; RETURN NEW; END $$ LANGUAGE plpgsql
            """,
            "CREATE TRIGGER hold_slow_message AFTER INSERT ON message FOR EACH ROW EXECUTE FUNCTION hold_slow_message()",
        ] {
            try await TestDatabase.run(statement, onDatabaseOf: server.config.dataDirectory)
        }
        let alice = try await TestClient.login("alice", port: server.port)
        let carol = try await TestClient.login("carol", port: server.port)
        let slowConversation = try await alice.startConversation(members: ["bob"])
        let fastConversation = try await carol.startConversation(members: ["bob"])
        let slow = Task { try await alice.sendText("SLOW", cid: slowConversation) }
        try await waitUntilASessionWaits("wait_event", "PgSleep", on: server, else: "the slow message never reached its insert")
        try await carol.sendText("fast", cid: fastConversation)

        let bob = try await TestClient.login("bob", port: server.port)
        _ = try await bob.next("the message stored first") { $0.cmd == .direct && $0.directMessage.msg == "fast" }
        _ = try await slow.value
        _ = try await bob.next(timeout: .seconds(10), "the message committed after bob logged in") {
            $0.cmd == .direct && $0.directMessage.msg == "SLOW"
        }
        try await server.stop()
    }

    /// Waits until a session of the server's database waits for `event`, as
    /// `pg_stat_activity`'s `column` names it (`wait_event` PgSleep, `wait_event_type` Lock).
    private func waitUntilASessionWaits(_ column: String, _ event: String, on server: TestServer, else what: String) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let waiting = try await TestDatabase.count(
                "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND \(column) = $1", event, in: server.config
            )
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestClient.Timeout(description: what)
    }
}

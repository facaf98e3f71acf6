import SwitchboardCore
import SwitchboardWire
import Testing

/// A session's catch-up from the store against live deliveries (see `Presence`).
@Suite struct PresenceCatchUpTests {
    /// Where commits run side by side (PostgreSQL), a message can take its `seq` before the
    /// session opens and commit after its catch-up read: live delivery hands it back as
    /// missed. It must reach the device before the later messages kept for the session, or
    /// an ack of those moves the device's position past it (CI, stop 44: two messages of
    /// 184 never delivered).
    @Test func whatTheCatchUpMissedGoesOutBeforeWhatWasKeptForTheSession() throws {
        let presence = Presence()
        let outbox = MemoryOutbox(closed: {})
        let connection = Connection(id: 1, outbox: outbox, remoteAddress: "127.0.0.1", missedMessages: .pushed)
        presence.messageStored(seq: 10)
        let (_, catchUpTo) = presence.open(Presence.Session(connection: connection, tag: nil, device: DeviceAddress(clientID: "bob", key: "phone")), for: "bob")
        #expect(catchUpTo == 10)
        let session = try #require(presence.session(clientID: "bob", connectionID: 1))

        #expect(!presence.missed(seq: 9, by: session), "kept for after the catch-up")
        var later = GenericCommand()
        later.cmd = .direct
        later.directMessage.id = "eleventh"
        presence.send(SharedCommand(later), to: session)

        #expect(presence.caughtUp(clientID: "bob", connectionID: 1) == [9])
        #expect(outbox.inbox.value.isEmpty, "a later message went out before the missed one was looked up")
        // Missed again while the first was looked up: handed back before anything is released.
        #expect(!presence.missed(seq: 8, by: session))
        #expect(presence.caughtUp(clientID: "bob", connectionID: 1) == [8])
        #expect(outbox.inbox.value.isEmpty)
        #expect(presence.caughtUp(clientID: "bob", connectionID: 1).isEmpty)
        #expect(outbox.inbox.value.map(\.directMessage.id) == ["eleventh"])
        #expect(presence.missed(seq: 7, by: session), "caught up: looked up by the caller at once")
    }

    @Test func aFailedCatchUpReleasesWhatWasKept() throws {
        let presence = Presence()
        let outbox = MemoryOutbox(closed: {})
        let connection = Connection(id: 1, outbox: outbox, remoteAddress: "127.0.0.1", missedMessages: .pushed)
        _ = presence.open(Presence.Session(connection: connection, tag: nil, device: DeviceAddress(clientID: "bob", key: "phone")), for: "bob")
        let session = try #require(presence.session(clientID: "bob", connectionID: 1))
        #expect(!presence.missed(seq: 1, by: session))
        var later = GenericCommand()
        later.cmd = .direct
        presence.send(SharedCommand(later), to: session)
        presence.abandonCatchUp(clientID: "bob", connectionID: 1)
        #expect(outbox.inbox.value.count == 1)
        #expect(presence.caughtUp(clientID: "bob", connectionID: 1).isEmpty)
    }
}

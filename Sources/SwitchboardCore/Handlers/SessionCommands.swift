import SwitchboardWire

/// `session/open`, `session/close` and `session/refresh`.
struct SessionCommands: Sendable {
    /// LeanCloud's SDKs share a connection between an app's clients; far more than an app
    /// has is someone filling the server's memory through one socket.
    static let maxSessionsPerConnection = 32

    let context: CoreContext
    let tokens: SessionTokens
    let delivery: Delivery
    let hooks: ClientHooks
    let wills: WillMessages

    /// Sends `opened` and then what the client missed itself, so nothing overtakes the reply.
    func open(_ request: GenericCommand, on connection: Connection) async throws {
        guard request.appID == context.settings.appID else {
            throw CommandError(.appNotAvailable, detail: "unknown appId \(request.appID)")
        }
        // No id: an anonymous login (the SDK's `createIMClient()`), given one. A signature
        // could only name an id the client already has.
        let anonymous = !request.hasPeerID || request.peerID.isEmpty
        if anonymous, context.settings.signaturesRequired {
            throw CommandError(.invalidLogin, detail: "anonymous login is off while signatures are required")
        }
        let clientID = anonymous ? Identifiers.anonymousClientID() : request.peerID
        guard ClientID.isValid(clientID) else {
            throw CommandError(.invalidLogin, detail: ClientID.rule)
        }
        let sessions = context.presence.clients(on: connection.id)
        guard sessions.contains(clientID) || sessions.count < Self.maxSessionsPerConnection else {
            throw CommandError(.invalidLogin, detail: "at most \(Self.maxSessionsPerConnection) clients per connection")
        }
        let open = request.sessionMessage
        let now = context.clock.now()
        // A reconnecting SDK sends its session token, which stands in for a signature; one no
        // longer good (expired, another client's, forged) makes it drop the token and log in
        // afresh, as on LeanCloud.
        let presentsToken = open.hasSt && !open.st.isEmpty
        var tokenDevice: String?
        if presentsToken {
            tokenDevice = tokens.device(of: open.st, for: clientID, now: now)
            guard tokenDevice != nil else {
                throw CommandError(.sessionTokenExpired, detail: "the session token expired or is not \(clientID)'s")
            }
        }
        if context.settings.signaturesRequired, !presentsToken {
            try await verifySignature(open, clientID: clientID, now: now)
        }
        let tag = open.hasTag && !open.tag.isEmpty && open.tag != "default" ? open.tag : nil
        // A device reconnecting on its own does not take the tag back from the one that
        // logged in with it since: it is the one turned away.
        if open.r, let tag, await holdsTag(tag, clientID: clientID, otherThan: connection) {
            throw CommandError(.sessionConflict, detail: "another device logged in with tag \(tag)")
        }
        let deviceToken = open.hasDeviceToken && !open.deviceToken.isEmpty ? open.deviceToken : nil
        // The Apple SDKs never send `deviceId`: their `deviceToken`, the APNs token or until
        // there is one a UUID kept for the device (objc-sdk `LCIMClient.m` 474-475, swift-sdk
        // `IMClient.swift` 1347-1348), is what tells one iPhone from another.
        let deviceKey = open.hasDeviceID && !open.deviceID.isEmpty ? open.deviceID : deviceToken
        let namesDevice = deviceKey != nil || tag != nil
        // A reconnect names no device: its token says which it is.
        let device = namesDevice || tokenDevice == nil
            ? DeviceAddress(clientID: clientID, deviceID: deviceKey, tag: tag)
            : DeviceAddress(clientID: clientID, key: tokenDevice ?? "")
        await awaitEndedConnections(of: device)
        let lastSeen = try await context.store.deviceSeen(device, at: now)
        var session = Presence.Session(connection: connection, tag: tag, device: device)
        session.openedAt = now
        // Other nodes store messages too; whatever is stored now comes in the catch-up, even
        // if their relays are late or lost.
        context.presence.messageStored(seq: try await context.store.latestMessageSeq())
        let (displacedSessions, catchUpTo) = context.presence.open(session, for: clientID)
        let loginOrder = await context.link.sessionOpened(session)
        if let loginOrder { context.presence.setLoginOrder(loginOrder, clientID: clientID, connectionID: connection.id) }
        for displaced in displacedSessions {
            await endDisplaced(displaced)
        }
        if let tag {
            context.link.publish(.tagTaken(clientID: clientID, tag: tag, loginOrder: loginOrder))
            // A login with the same tag on another node at the same moment may have told this
            // node before this session was here to end: the later of the two stays.
            if let loginOrder, await context.link.holdsTagElsewhere(clientID, tag: tag, loggedInAfter: loginOrder) {
                if let own = context.presence.close(clientID: clientID, connectionID: connection.id) { await context.link.sessionClosed(own) }
                throw CommandError(.sessionConflict, detail: "another device logged in with tag \(tag) at the same moment")
            }
        }
        // A device UUID is no address for a push: the device is pushed to once its APNs
        // token comes (in a later login, or `report/upload`).
        if let deviceToken, !PushDevice.isDeviceUUID(deviceToken) {
            try await context.store.registerDevice(clientID: clientID, token: deviceToken, deviceID: device.key, at: context.clock.now())
        }
        context.logger.info("session opened", metadata: ["client": "\(clientID)", "connection": "\(connection.id)", "tag": "\(tag ?? "")"])

        var reply = Replies.reply(to: request, op: .opened)
        reply.peerID = clientID
        reply.sessionMessage.st = tokens.issue(for: clientID, device: device.key, now: now)
        reply.sessionMessage.stTtl = SessionTokens.lifetimeSeconds
        // Where the SDK starts counting patches and notices from.
        reply.serverTs = now
        connection.outbox.send(reply)
        // What was missed while offline follows the `opened` reply: notices first, as a
        // conversation joined comes before its messages.
        if let lastSeen {
            try await replayNotices(to: clientID, on: connection, since: lastSeen)
        }
        switch connection.missedMessages {
        case .unreadCounts:
            // This client learns of missed messages from the `unread` notice below and
            // fetches them itself; pushed as well, each would count as new again.
            try await context.store.trimQueue(of: device, keepingPerConversation: 0)
        case .pushed:
            if let keep = context.settings.offlineMessagesPerConversation {
                try await context.store.trimQueue(of: device, keepingPerConversation: keep)
            }
        }
        try await catchUp(session, upTo: catchUpTo)
        try await delivery.sendBroadcasts(to: clientID, on: connection, sentAfter: lastSeen ?? 0)
        if connection.missedMessages == .unreadCounts {
            let unread = try await context.store.unreadSummaries(for: clientID, since: open.lastUnreadNotifTime, conversationID: nil)
            if !unread.isEmpty {
                connection.outbox.send(UnreadNotices.notice(unread, to: clientID, at: context.clock.now()))
            }
        }
        if open.lastPatchTime > 0 {
            try await delivery.sendPatches(to: clientID, on: connection, since: open.lastPatchTime)
        }
        await hooks.online(clientID, session: session, reconnect: open.r)
    }

    /// How long a login waits for its device's ended connections to be wound up.
    static let endedConnectionWait: Duration = .seconds(3)

    /// Waits, at most `endedConnectionWait`, until `device` has no session left on a
    /// connection that has ended. Such a connection's last commands are still being
    /// handled, in order, an ack among them: a catch-up read before that ack commits would
    /// send again what the device acknowledged (an app that reconnects as soon as its socket
    /// drops logs in while its previous connection's commands wait behind a slow hook).
    private func awaitEndedConnections(of device: DeviceAddress) async {
        let deadline = ContinuousClock.now + Self.endedConnectionWait
        while context.presence.sessions(of: device.clientID).contains(where: { $0.device == device && !$0.connection.outbox.isOpen }),
              ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Whether a session of `clientID` other than one on `connection` holds `tag`, on any node.
    private func holdsTag(_ tag: String, clientID: String, otherThan connection: Connection) async -> Bool {
        if context.presence.sessions(of: clientID).contains(where: { $0.tag == tag && $0.connection.id != connection.id }) {
            return true
        }
        return await context.link.holdsTagElsewhere(clientID, tag: tag, loggedInAfter: nil)
    }

    /// `clientID` logged in with `tag` on another node: its sessions here with that tag that
    /// logged in before end. A session whose own order is not known yet is left to its
    /// login, which looks for later ones once it knows.
    func tagTakenElsewhere(clientID: String, tag: String, loginOrder: Int64?) async {
        for session in context.presence.sessions(of: clientID) where session.tag == tag {
            if let loginOrder {
                guard let own = session.loginOrder, own < loginOrder else { continue }
            }
            guard let displaced = context.presence.close(clientID: clientID, connectionID: session.connection.id) else { continue }
            await endDisplaced(displaced)
        }
    }

    /// Tells a session that lost its tag to a newer login why it ended (4111).
    private func endDisplaced(_ displaced: Presence.Session) async {
        let clientID = displaced.device.clientID
        // Replaced, not lost: its will is not sent (see `MessagingCore.kickHere`).
        await wills.withdraw(for: clientID, setOn: displaced.connection.id)
        var closed = Replies.notification(.session, op: .closed, to: clientID)
        closed.sessionMessage.code = ErrorCode.sessionConflict.rawValue
        closed.sessionMessage.reason = ErrorCode.sessionConflict.reason
        closed.sessionMessage.detail = "logged in on another device with tag \(displaced.tag ?? "")"
        displaced.connection.outbox.send(closed)
        context.logger.info("session displaced", metadata: ["client": "\(clientID)", "tag": "\(displaced.tag ?? "")"])
        await context.link.sessionClosed(displaced)
        await hooks.offline(clientID, session: displaced, closeCode: .kickedByTagConflict, message: "logged in elsewhere with the same tag")
    }

    /// The permanent notices (membership, roles, changes) kept for the client since its
    /// device was last seen, oldest first, as they were sent then.
    private func replayNotices(to clientID: String, on connection: Connection, since time: Int64) async throws {
        for bytes in try await context.store.notices(for: clientID, since: time, limit: Self.maxReplayedNotices) {
            guard var notice = try? GenericCommand(serializedBytes: bytes) else { continue }
            notice.peerID = clientID
            // Kept by an earlier version, which did not say it.
            notice.service = RealtimeService.instantMessaging
            connection.outbox.send(notice)
        }
    }

    /// Notices one login replays; a device offline through more is better served by
    /// querying its conversations afresh.
    static let maxReplayedNotices = 1000

    /// Sends the session's device what was stored for it up to `lastSeq` and not
    /// acknowledged, oldest first; live deliveries wait until then. Then what it missed:
    /// messages that committed after it read.
    private func catchUp(_ session: Presence.Session, upTo lastSeq: Int64) async throws {
        let (device, connection) = (session.device, session.connection)
        do {
            try await delivery.sendAllPending(to: device, on: [connection], from: 1, through: lastSeq, lastDeliveredBefore: .max)
            var missed = context.presence.caughtUp(clientID: device.clientID, connectionID: connection.id)
            while !missed.isEmpty {
                try await delivery.sendMissed(missed, to: session)
                missed = context.presence.caughtUp(clientID: device.clientID, connectionID: connection.id)
            }
        } catch {
            context.presence.abandonCatchUp(clientID: device.clientID, connectionID: connection.id)
            throw error
        }
    }

    func close(_ request: GenericCommand, clientID: String, on connection: Connection) async -> GenericCommand {
        await wills.withdraw(for: clientID)
        if let session = context.presence.close(clientID: clientID, connectionID: connection.id) {
            await context.link.sessionClosed(session)
            await hooks.offline(clientID, session: session, closeCode: .loggedOut, message: "logged out")
            await context.deviceLeft(session.device)
        }
        context.logger.info("session closed", metadata: ["client": "\(clientID)", "connection": "\(connection.id)"])
        return Replies.reply(to: request, op: .closed)
    }

    func refresh(_ request: GenericCommand, clientID: String, on connection: Connection) -> GenericCommand {
        var reply = Replies.reply(to: request, op: .refreshed)
        let device = context.presence.session(clientID: clientID, connectionID: connection.id)?.device.key ?? ""
        reply.sessionMessage.st = tokens.issue(for: clientID, device: device, now: context.clock.now())
        reply.sessionMessage.stTtl = SessionTokens.lifetimeSeconds
        return reply
    }

    /// `report/upload` of type `token`: how LeanCloud's iOS SDKs hand over a device token that
    /// arrived or changed after login. Registered as one sent at login, and answered
    /// `uploaded` (the SDKs try again, waiting longer each time, until it is).
    func report(_ request: GenericCommand, clientID: String, on connection: Connection) async throws -> GenericCommand {
        let report = request.reportMessage
        guard report.type == "token" else {
            throw CommandError(.unparseableRawMessage, detail: "unsupported report type \(report.type)")
        }
        guard !report.data.isEmpty, report.data.utf8.count <= Self.maxDeviceTokenBytes else {
            throw CommandError(.unparseableRawMessage, detail: "a device token is 1 to \(Self.maxDeviceTokenBytes) bytes")
        }
        let device = context.presence.session(clientID: clientID, connectionID: connection.id)?.device.key ?? ""
        try await context.store.registerDevice(clientID: clientID, token: report.data, deviceID: device.isEmpty ? nil : device, at: context.clock.now())
        return Replies.reply(to: request, op: .uploaded)
    }

    /// APNs tokens are 32 bytes (64 hex digits) today and Apple says they may grow; FCM's are
    /// about 160 characters.
    static let maxDeviceTokenBytes = 512

    /// `session/query`: which of the given clients are online, on any node.
    func onlineStatus(_ request: GenericCommand) async -> GenericCommand {
        var reply = Replies.reply(to: request, op: .queryResult)
        let asked = request.sessionMessage.sessionPeerIds
        let online = await context.online(among: asked)
        reply.sessionMessage.onlineSessionPeerIds = asked.filter(online.contains)
        return reply
    }

    private func verifySignature(_ open: SessionCommand, clientID: String, now: Int64) async throws {
        let presented = SignatureCheck.Presented(
            signature: open.hasS ? open.s : nil, timestamp: open.hasT ? open.t : nil, nonce: open.hasN ? open.n : nil
        )
        try await context.signatures.verify(presented, failure: .signatureFailed) { timestamp, nonce in
            context.signatures.signer.login(clientID: clientID, timestamp: timestamp, nonce: nonce)
        }
    }
}

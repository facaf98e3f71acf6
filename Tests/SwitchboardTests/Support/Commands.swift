import Foundation
import SwitchboardWire

/// Builders for the commands an SDK sends, with the fields LeanCloud's SDKs fill.
extension GenericCommand {
    static func open(_ clientID: String, appID: String, tag: String? = nil, signature: (t: Int64, n: String, s: String)? = nil) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .session
        command.op = .open
        command.appID = appID
        command.peerID = clientID
        command.sessionMessage.ua = "switchboard-tests/1"
        if let tag { command.sessionMessage.tag = tag }
        if let signature {
            command.sessionMessage.t = signature.t
            command.sessionMessage.n = signature.n
            command.sessionMessage.s = signature.s
        }
        return command
    }

    static func startConversation(
        members: [String], name: String? = nil, attributes: [String: String] = [:], unique: Bool = false,
        transient: Bool = false, temporary: Bool = false, ttl: Int32? = nil
    ) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .conv
        command.op = .start
        command.convMessage.m = members
        var attr = attributes
        if let name { attr["name"] = name }
        command.convMessage.attr.data = String(decoding: try! JSONSerialization.data(withJSONObject: attr, options: [.sortedKeys]), as: UTF8.self)
        if unique { command.convMessage.unique = true }
        if transient { command.convMessage.transient = true }
        if temporary { command.convMessage.tempConv = true }
        if let ttl { command.convMessage.tempConvTtl = ttl }
        return command
    }

    static func conversation(_ op: OpType, cid: String, members: [String] = []) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .conv
        command.op = op
        command.convMessage.cid = cid
        command.convMessage.m = members
        return command
    }

    static func update(cid: String, attributes json: String) -> GenericCommand {
        var command = conversation(.update, cid: cid)
        command.convMessage.attr.data = json
        return command
    }

    static func query(where json: String, sort: String? = nil, limit: Int32? = nil, skip: Int32? = nil) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .conv
        command.op = .query
        command.convMessage.where.data = json
        if let sort { command.convMessage.sort = sort }
        if let limit { command.convMessage.limit = limit }
        if let skip { command.convMessage.skip = skip }
        return command
    }

    static func text(_ text: String, cid: String, transient: Bool = false, receipt: Bool = false) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .direct
        command.directMessage.cid = cid
        command.directMessage.msg = text
        if transient { command.directMessage.transient = true }
        if receipt { command.directMessage.r = true }
        return command
    }

    static func typedText(_ text: String, cid: String) -> GenericCommand {
        .text(#"{"_lctext":"\#(text)","_lctype":-1}"#, cid: cid)
    }

    /// The Android and iOS SDKs' receipt: the ids of the messages received.
    static func ack(ids: [String]) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .ack
        command.ackMessage.ids = ids
        return command
    }

    /// The JS SDK's receipt: a time range of one conversation, no serial.
    static func ack(cid: String, from: Int64, to: Int64) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .ack
        command.ackMessage.cid = cid
        command.ackMessage.fromts = from
        command.ackMessage.tots = to
        return command
    }

    static func logs(cid: String, limit: Int32? = nil, t: Int64? = nil, tt: Int64? = nil, direction: LogsCommand.QueryDirection? = nil, lctype: Int32? = nil) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .logs
        command.logsMessage.cid = cid
        if let limit { command.logsMessage.l = limit }
        if let t { command.logsMessage.t = t }
        if let tt { command.logsMessage.tt = tt }
        if let direction { command.logsMessage.direction = direction }
        if let lctype { command.logsMessage.lctype = lctype }
        return command
    }

    /// `session/query`: which of `clientIDs` are online.
    static func onlineStatus(_ clientIDs: [String]) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .session
        command.op = .query
        command.sessionMessage.sessionPeerIds = clientIDs
        return command
    }

    static var echo: GenericCommand {
        var command = GenericCommand()
        command.cmd = .echo
        return command
    }

    var isError: Bool { cmd == .error }
}

extension SDKClient {
    /// Starts a conversation and returns its id.
    func startConversation(members: [String], name: String? = nil, unique: Bool = false) async throws -> String {
        let reply = try await request(.startConversation(members: members, name: name, unique: unique))
        guard reply.cmd == .conv, reply.op == .started, reply.convMessage.hasCid else {
            throw TestClient.Timeout(description: "conv/start failed: \(reply)")
        }
        return reply.convMessage.cid
    }

    /// Sends a text message and returns the server's ack.
    @discardableResult
    func sendText(_ text: String, cid: String) async throws -> AckCommand {
        let reply = try await request(.text(text, cid: cid))
        guard reply.cmd == .ack, !reply.ackMessage.hasCode else {
            throw TestClient.Timeout(description: "send failed: \(reply)")
        }
        return reply.ackMessage
    }

    /// Whether the server has a session of `clientID` open, as `session/query` answers.
    func isOnline(_ clientID: String) async throws -> Bool {
        try await request(.onlineStatus([clientID])).sessionMessage.onlineSessionPeerIds.contains(clientID)
    }

    /// Waits until the server no longer has a session of `clientID` (a closed socket ends
    /// its sessions a moment later).
    func waitUntilOffline(_ clientID: String, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await !isOnline(clientID) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestClient.Timeout(description: "\(clientID) still online")
    }

    /// The next message delivered to this connection.
    func nextMessage(timeout: Duration = .seconds(5)) async throws -> DirectCommand {
        try await next(timeout: timeout, "direct message", where: { $0.cmd == .direct }).directMessage
    }
}

extension GenericCommand {
    /// `patch/modify`: an edit to `text`, or a recall.
    static func patch(
        cid: String, mid: String, timestamp: Int64, text: String? = nil, recall: Bool = false, mentionPids: [String] = []
    ) -> GenericCommand {
        var item = PatchItem()
        item.cid = cid
        item.mid = mid
        item.timestamp = timestamp
        if recall { item.recall = true }
        if let text { item.data = text }
        item.mentionPids = mentionPids
        var command = GenericCommand()
        command.cmd = .patch
        command.op = .modify
        command.patchMessage.patches = [item]
        return command
    }
}

extension GenericCommand {
    /// `read`: the JS SDK's form, one tuple per conversation.
    static func read(cid: String, upTo timestamp: Int64) -> GenericCommand {
        var tuple = ReadTuple()
        tuple.cid = cid
        tuple.timestamp = timestamp
        var command = GenericCommand()
        command.cmd = .read
        command.readMessage.convs = [tuple]
        return command
    }

    static func maxRead(cid: String, allMembers: Bool = false) -> GenericCommand {
        var command = GenericCommand.conversation(.maxRead, cid: cid)
        if allMembers { command.convMessage.queryAllMembers = true }
        return command
    }
}

extension SDKClient {
    /// Runs a conv/query and returns the result objects.
    func queryConversations(where json: String, sort: String? = nil, limit: Int32? = nil, skip: Int32? = nil) async throws -> [[String: Any]] {
        let reply = try await request(.query(where: json, sort: sort, limit: limit, skip: skip))
        guard reply.op == .results else { throw TestClient.Timeout(description: "conv/query failed: \(reply)") }
        return try JSONSerialization.jsonObject(with: Data(reply.convMessage.results.data.utf8)) as? [[String: Any]] ?? []
    }
}

/// Role and blacklist commands, as the SDKs build them.
extension GenericCommand {
    static func memberRole(_ clientID: String, role: String, cid: String) -> GenericCommand {
        var command = conversation(.memberInfoUpdate, cid: cid)
        command.convMessage.targetClientID = clientID
        command.convMessage.info.pid = clientID
        command.convMessage.info.role = role
        return command
    }

    static func blacklist(_ op: OpType, cid: String, clients: [String] = [], limit: Int32? = nil, next: String? = nil) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .blacklist
        command.op = op
        command.blacklistMessage.srcCid = cid
        command.blacklistMessage.toPids = clients
        if let limit { command.blacklistMessage.limit = limit }
        if let next { command.blacklistMessage.next = next }
        return command
    }
}

extension GenericCommand {
    /// `session/close`: a logout.
    static func closeSession() -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .session
        command.op = .close
        return command
    }
}

extension TestServer {
    /// Logs `clientID` in once from a device with `token` (and `deviceID`, if given), then
    /// leaves it offline, and waits until the server has ended its session: a message sent
    /// sooner would find it still online and push nothing.
    func registerDevice(_ clientID: String, token: String, deviceID: String? = nil) async throws {
        let client = try await connect()
        var open = GenericCommand.open(clientID, appID: config.appID)
        open.sessionMessage.deviceToken = token
        if let deviceID { open.sessionMessage.deviceID = deviceID }
        let reply = try await client.request(open)
        guard reply.op == .opened else { throw TestClient.Timeout(description: "\(clientID) could not log in: \(reply)") }
        client.close()
        try await client.waitUntilClosed()
        let watcher = try await login("device-registration-watcher")
        try await watcher.waitUntilOffline(clientID)
        watcher.close()
    }
}

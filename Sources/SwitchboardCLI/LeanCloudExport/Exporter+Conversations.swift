import Foundation
import SwitchboardData
import SwitchboardJSON

extension Exporter {
    /// Visits each conversation this run's `_Conversation` walk wrote, in the order it wrote
    /// them: a conversation's or chat room's blocked and silenced members, a page at a time,
    /// into one line of `conversations/lists.jsonl`; a system conversation's subscribers, a
    /// page at a time, into `conversations/subscribers.jsonl`. The manifest records each page
    /// (the lists read so far with it), so a run taken up again asks for none twice.
    func exportConversationLists() async throws {
        var pass = folder.manifest.state.conversations
        guard !pass.done else { return }
        let total = folder.manifest.state.classes.first { $0.name == ConversationClass.name }?.count ?? 0
        let end = folder.manifest.state.files[Self.conversationFile] ?? 0
        let firstVisited = pass.visited
        let visitStart = ContinuousClock.now
        for (line, lineEnd) in try FileLines(path: settings.folder + "/" + Self.conversationFile, from: pass.at, to: end) {
            let row = try? JSONValue(parsing: String(decoding: line, as: UTF8.self))
            if let id = row?["objectId"]?.stringValue {
                passStatus = "conversations \(ExportProgress.count(pass.visited))/\(ExportProgress.count(total))"
                    + Self.timeLeft(done: pass.visited - firstVisited, left: total - pass.visited, since: visitStart)
                try await visit(id, kind: ConversationKind(row), &pass)
            }
            pass.at = lineEnd
            pass.visited += 1
            pass.current = nil
            folder.manifest.state.conversations = pass
            try commit()
        }
        pass.done = true
        folder.manifest.state.conversations = pass
        try commit()
    }

    /// Where a conversation's lists are read: LeanCloud keeps chat rooms and system
    /// conversations under paths of their own.
    enum ConversationKind {
        case normal, chatRoom, system

        init(_ row: JSONValue?) {
            self = row?["sys"]?.boolValue == true ? .system : row?["tr"]?.boolValue == true ? .chatRoom : .normal
        }

        var path: String {
            switch self {
            case .normal: "conversations"
            case .chatRoom: "chatrooms"
            case .system: "service-conversations"
            }
        }
    }

    /// Reads a conversation's lists page by page, recording each page, from where `pass`
    /// says a killed run stopped. A conversation deleted since the walk (4303) is left out.
    private func visit(_ id: String, kind: ConversationKind, _ pass: inout ExportState.ConversationPass) async throws {
        var lists = pass.current.flatMap { $0.conversationID == id ? $0 : nil }
            ?? ExportState.ListProgress(conversationID: id, list: kind == .system ? .subscribers : .blocked)
        do {
            while true {
                switch lists.list {
                case .blocked, .silenced:
                    let path = ["1.2", "rtm", kind.path, id, lists.list == .blocked ? "blacklists" : "permanent-silenceds"]
                    let answer = try await client.get(path, [("limit", "100")] + (lists.next.map { [("next", $0)] } ?? []))
                    guard let ids = answer["client_ids"]?.arrayValue?.compactMap(\.stringValue) else { throw unexpected("GET /\(path.joined(separator: "/"))", answer) }
                    if lists.list == .blocked { lists.blocked += ids } else { lists.silenced += ids }
                    lists.next = answer["next"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                    if lists.next == nil, lists.list == .blocked {
                        lists.list = .silenced
                    } else if lists.next == nil {
                        let line: JSONValue = ["conv-id": .string(id), "blocked": .strings(lists.blocked), "silenced": .strings(lists.silenced)]
                        try record([line.jsonString], to: Self.listsFile)
                        return
                    }
                case .subscribers:
                    let path = ["1.2", "rtm", kind.path, id, "subscribers"]
                    let answer = try await client.get(path, [("limit", "50")] + (lists.next.map { [("client_id", $0)] } ?? []))
                    guard let page = answer.arrayValue else { throw unexpected("GET /\(path.joined(separator: "/"))", answer) }
                    // A page short of the limit need not be the last; an empty one is.
                    guard let last = page.last?["subscriber"]?.stringValue else { return }
                    try record(page.map { subscription in
                        JSONValue.object(["conv-id": .string(id), "client-id": subscription["subscriber"] ?? .null, "timestamp": subscription["timestamp"] ?? .null]).jsonString
                    }, to: Self.subscribersFile)
                    lists.next = last
                }
                pass.current = lists
                folder.manifest.state.conversations = pass
                try commit()
            }
        } catch let refusal as ExportRefusal where refusal.code == 4303 {
            progress.note("\(id): \(refusal.summary); left out (deleted since the walk)")
        }
    }

    /// ` · 3m 05s left`, from the pace so far; nothing before there is one.
    static func timeLeft(done: Int, left: Int, since start: ContinuousClock.Instant) -> String {
        guard done > 0, left > 0 else { return "" }
        return " · " + ExportProgress.format((ContinuousClock.now - start) * (Double(left) / Double(done))) + " left"
    }
}

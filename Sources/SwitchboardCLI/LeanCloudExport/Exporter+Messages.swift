import Foundation
import SwitchboardJSON

extension Exporter {
    /// At most this many messages a file.
    static let messagesPerFile = 100_000

    /// Every message after the last one exported, oldest first, through
    /// `GET /1.2/rtm/messages?reversed=true` from the last one's timestamp and id (left out),
    /// into `messages/000001.jsonl` and on; an empty page is the end.
    func exportMessages() async throws {
        while true {
            var position = folder.manifest.state.messages
            // How many there will be is not known: how far they have come is shown instead.
            passStatus = "messages \(ExportProgress.count(run.counts["messages"] ?? 0))"
                + (position.timestamp.map { " (up to \(ISODate.string(milliseconds: $0).prefix(16).replacingOccurrences(of: "T", with: " ")))" } ?? "")
            var query = [("reversed", "true"), ("limit", String(settings.pageSize))]
            if let timestamp = position.timestamp { query.append(("timestamp", String(timestamp))) }
            if let msgid = position.msgid { query.append(("msgid", msgid)) }
            let answer = try await client.get(["1.2", "rtm", "messages"], query)
            guard let page = answer.arrayValue else { throw unexpected("GET /1.2/rtm/messages", answer) }
            // The start is left out; should a server give it again, it is not taken twice.
            let messages = page.filter { position.msgid == nil || $0["msg-id"]?.stringValue != position.msgid }
            guard let last = messages.last else { return }
            guard let timestamp = last["timestamp"]?.int64Value, let msgid = last["msg-id"]?.stringValue else {
                throw unexpected("GET /1.2/rtm/messages", last)
            }
            var lines = messages.map(\.jsonString)[...]
            while !lines.isEmpty {
                if position.inFile == Self.messagesPerFile {
                    position.file += 1
                    position.inFile = 0
                }
                let part = lines.prefix(Self.messagesPerFile - position.inFile)
                try record(Array(part), to: Self.messagesFile(position.file), count: "messages")
                position.inFile += part.count
                lines = lines.dropFirst(part.count)
            }
            position.timestamp = timestamp
            position.msgid = msgid
            folder.manifest.state.messages = position
            try commit()
        }
    }

    /// `messages/000001.jsonl`.
    static func messagesFile(_ number: Int) -> String {
        "messages/" + String(format: "%06d", number) + ".jsonl"
    }
}

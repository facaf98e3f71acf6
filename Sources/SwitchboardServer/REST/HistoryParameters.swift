import Hummingbird
import SwitchboardCore

/// The history query of `GET /1.2/rtm/conversations/{conv_id}/messages`: newest first from
/// `timestamp`/`msgid` (default now) down to `till_timestamp`/`till_msgid` (default 0);
/// `reversed` turns it round (from 0 up to now); `include_start`/`include_stop` make the
/// bounds inclusive; `limit` is 100 unless given, at most the server's history cap.
struct HistoryParameters {
    static let defaultLimit = 100

    private let parameters: [String: String]

    init(_ request: Request) {
        parameters = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    func query(conversationID: String) throws -> HistoryQuery {
        let reversed = try flag("reversed")
        let start = try bound(timestamp: "timestamp", id: "msgid", included: "include_start")
        let end = try bound(timestamp: "till_timestamp", id: "till_msgid", included: "include_stop")
        let limit = try number("limit").map(Int.init) ?? Self.defaultLimit
        return HistoryQuery(
            conversationID: conversationID, limit: limit, direction: reversed ? .newer : .older, start: start, end: end, messageType: nil
        )
    }

    private func bound(timestamp: String, id: String, included: String) throws -> HistoryQuery.Bound? {
        guard let time = try number(timestamp) else {
            guard parameters[id] == nil else { throw RESTFailure(message: "\(id) needs \(timestamp)") }
            return nil
        }
        return HistoryQuery.Bound(timestamp: time, messageID: parameters[id], included: try flag(included))
    }

    private func number(_ name: String) throws -> Int64? {
        guard let text = parameters[name] else { return nil }
        guard let value = Int64(text), value >= 0 else { throw RESTFailure(message: "\(name) is a number") }
        return value
    }

    private func flag(_ name: String) throws -> Bool {
        switch parameters[name] {
        case nil, "false", "0": false
        case "true", "1": true
        default: throw RESTFailure(message: "\(name) is true or false")
        }
    }
}

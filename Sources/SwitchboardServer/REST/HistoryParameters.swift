import SwitchboardCore

/// The history query of `GET /1.2/rtm/conversations/{conv_id}/messages` (and of a client's
/// and the app's messages): newest first from
/// `timestamp`/`msgid` (default now) down to `till_timestamp`/`till_msgid` (default 0);
/// `reversed` turns it round (from 0 up to now); `include_start`/`include_stop` make the
/// bounds inclusive; `limit` is 100 unless given, at most the server's history cap.
struct HistoryParameters {
    static let defaultLimit = 100

    let parameters: QueryParameters

    /// `reader`: only what that client may see (nil: everything).
    func query(_ scope: HistoryQuery.Scope, reader: String? = nil) throws -> HistoryQuery {
        let reversed = try parameters.flag("reversed")
        let start = try bound(timestamp: "timestamp", id: "msgid", included: "include_start")
        let end = try bound(timestamp: "till_timestamp", id: "till_msgid", included: "include_stop")
        let limit = try parameters.number("limit").map { Int(clamping: $0) } ?? Self.defaultLimit
        return HistoryQuery(
            scope: scope, limit: limit, direction: reversed ? .newer : .older, start: start, end: end, messageType: nil, reader: reader
        )
    }

    private func bound(timestamp: String, id: String, included: String) throws -> HistoryQuery.Bound? {
        guard let time = try parameters.number(timestamp) else {
            guard parameters[id] == nil else { throw RESTFailure(message: "\(id) needs \(timestamp)") }
            return nil
        }
        return HistoryQuery.Bound(timestamp: time, messageID: parameters[id], included: try parameters.flag(included))
    }
}

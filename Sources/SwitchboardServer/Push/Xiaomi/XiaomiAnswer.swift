import SwitchboardJSON

/// What MiPush's answer to one device's push means. Xiaomi answers HTTP 200 with JSON:
/// `code` 0 (`result` ok) when it took the message, listing in `data.bad_regids` the ids
/// it will not deliver to; an error's `code`, `reason` and `description` otherwise. Its
/// server error code reference (dev.mi.com, 服务端错误码参考) and push limits page
/// (推送消息限制说明) give the codes used here.
enum XiaomiAnswer {
    /// Tried again: system error, system busy, remote service error, API called too often.
    private static let later: Set<Int64> = [10001, 10002, 10003, 10027]
    /// The day's quota: "exceed quota" (200001), too many messages today (10034).
    private static let quota: Set<Int64> = [200001, 10034]

    static func answer(status: Int, body: String, token: String) -> DevicePushAnswer {
        let json = try? JSONValue(parsing: body)
        let code = json?["code"]?.int64Value
        let reason = [code.map { "code \($0)" }, json?["reason"]?.stringValue, json?["description"]?.stringValue]
            .compactMap { $0 }.joined(separator: ": ")
        guard status == 200, let code else {
            return .httpStatus(status, "HTTP \(status)" + (reason.isEmpty ? "" : ": \(reason)"))
        }
        switch code {
        case 0:
            let bad = json?["data"]?["bad_regids"]?.stringValue?.split(separator: ",") ?? []
            return bad.contains(Substring(token)) ? .deadToken("bad_regids") : .accepted
        // A message to one registration id that no longer reaches a device.
        case _ where json?["reason"]?.stringValue?.localizedCaseInsensitiveContains("no valid targets") == true:
            return .deadToken(reason)
        case _ where quota.contains(code): return .quotaExhausted(reason)
        case _ where later.contains(code): return .later(reason)
        default: return .refused(reason)
        }
    }
}

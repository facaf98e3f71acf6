import SwitchboardJSON

/// What Meizu's answer to one device's push means (MEIZUPUSH/PushAPI: 接口响应规范 and the
/// pushId push answers). Meizu answers JSON with a `code`: `200` when it took the request,
/// its `value` then listing, by code, the pushIds it did not push to; an error code otherwise.
enum MeizuAnswer {
    /// The pushId no longer reaches the app: unsubscribed or its switch off (110002), or not a
    /// pushId (110003).
    private static let deadToken: Set<String> = ["110002", "110003"]
    /// A device's push failed for now: db error (501), failed (513), over the rate (518),
    /// overloaded (519).
    private static let deviceLater: Set<String> = ["501", "513", "518", "519"]
    /// The request failed for now: system error (1001), server busy (1003), too fast (110010).
    private static let later: Set<String> = ["1001", "1003", "110010"]
    /// Pass-through messages over the app's limit.
    private static let quota: Set<String> = ["110053"]

    static func answer(status: Int, body: String, token: String) -> DevicePushAnswer {
        let json = try? JSONValue(parsing: body)
        let code = json?["code"].flatMap { $0.stringValue ?? $0.int64Value.map(String.init) }
        let message = json?["message"]?.stringValue ?? ""
        let reason = [code.map { "code \($0)" }, message.isEmpty ? nil : message].compactMap { $0 }.joined(separator: ": ")
        guard status == 200, let code else {
            return .httpStatus(status, "HTTP \(status)" + (reason.isEmpty ? "" : ": \(reason)"))
        }
        guard code == "200" else {
            if later.contains(code) { return .later(reason) }
            return quota.contains(code) ? .quotaExhausted(reason) : .refused(reason)
        }
        let failed = json?["value"]?.objectValue?.first { _, pushIDs in
            pushIDs.arrayValue?.contains(.string(token)) == true
        }
        guard let deviceCode = failed?.key else { return .accepted }
        let deviceReason = "pushId answered \(deviceCode)"
        if deadToken.contains(deviceCode) { return .deadToken(deviceReason) }
        return deviceLater.contains(deviceCode) ? .later(deviceReason) : .refused(deviceReason)
    }
}

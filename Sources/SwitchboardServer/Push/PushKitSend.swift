import SwitchboardJSON

/// A send to Huawei Push Kit's API, or to Honor's, which grew out of it: the JSON message
/// POSTed with the account's OAuth access token as a bearer, answered with a result `code` (a
/// string or a number) that `PushKitAnswer` reads; an access token the service refused is
/// dropped so the next try fetches another.
enum PushKitSend {
    /// - Parameters:
    ///   - path: under the account's base URL.
    ///   - headers: besides the authorization; made once the access token is at hand.
    ///   - messageKey: the answer's text (`msg` for Huawei, `message` for Honor).
    ///   - successCode: the service's own code for success, read as Push Kit's.
    static func post<Settings>(
        _ message: JSONValue, to path: String, headers: () -> [(name: String, value: String)] = { [] }, as account: VendorTokenAccount<Settings>,
        messageKey: String, successCode: String = PushKitAnswer.Code.success
    ) async -> DevicePushAnswer {
        await account.send { bearer in
            let answer = try await account.common.post(
                path, contentType: "application/json; charset=UTF-8", headers: [("authorization", "Bearer \(bearer)")] + headers(), body: message.jsonString
            )
            let body = try? JSONValue(parsing: answer.body)
            let code = body?["code"].flatMap { $0.stringValue ?? $0.int64Value.map(String.init) }
            return PushKitAnswer.interpret(
                status: answer.status, code: code == successCode ? PushKitAnswer.Code.success : code, message: body?[messageKey]?.stringValue ?? "",
                retryAfter: answer.headers.first(name: "retry-after")
            )
        }
    }
}

import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import SwitchboardCore
import SwitchboardHooks
import SwitchboardJSON

/// The `honor` push provider: sends the Android devices `PushRouter` hands it (installations
/// with `vendor` `honor`, by registration id) a push each through Honor Push's server API,
/// with the account their `deviceProfile` picks; queued, tried again and counted by
/// `DevicePushDelivery` (`switchboard_push_honor_total`). Answers are read as Huawei Push
/// Kit's result codes (`PushKitAnswer`), with Honor's `200` for success.
///
/// Follows Honor's developer guide "荣耀推送服务 - 发送下行消息" (send downlink messages) and its
/// "下行消息" reference (https://developer.honor.com/cn/docs/11002/reference/downlink-message): an access
/// token by OAuth client credentials from `iam.developer.honor.com`, sent as
/// `Authorization: Bearer` with a `timestamp` header (milliseconds) to
/// `push-api.cloud.honor.com/api/v1/{APPID}/sendMessage`. Honor's table of result codes was
/// not at hand; the codes acted on are Push Kit's, which Honor's service grew out of.
struct HonorPushGateway: PushGateway {
    let accounts: VendorPushAccounts<HonorSettings>
    /// Each account's access token, by its client id.
    let accessTokens: [String: PushAccessToken]

    init(accounts settings: [HonorSettings], store: any MessageStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        accounts = try VendorPushAccounts(service: "Honor", settings: settings, store: store, queue: queue, metrics: metrics, logger: logger)
        accessTokens = Dictionary(settings.map { settings in
            let grant = OAuthClientCredentials(
                service: "Honor", tokenURL: settings.tokenURL, clientID: settings.clientID, clientSecret: settings.clientSecret,
                client: PushHTTPClients.client(trustRootsFile: settings.trustRootsFile)
            )
            return (settings.clientID, grant.accessToken())
        }, uniquingKeysWith: { first, _ in first })
    }

    func push(_ notice: PushNotice) async {
        await accounts.push(notice) { [accessTokens] settings, token in
            guard let message = HonorMessage.body(token: token, payload: notice.payload, settings: settings) else {
                return .refused("the push data has neither title nor alert")
            }
            // Every account's client id has its token, made with the accounts.
            return await Self.post(message, as: settings, accessToken: accessTokens[settings.clientID]!)
        }
    }

    private static func post(_ message: JSONValue, as settings: HonorSettings, accessToken: PushAccessToken) async -> DevicePushAnswer {
        let bearer: String
        do {
            bearer = try await accessToken.token()
        } catch {
            return .later("no access token: \(error)")
        }
        var request = HTTPClientRequest(url: settings.sendURL.appendingPathComponent("api/v1/\(settings.appID)/sendMessage").absoluteString)
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        request.headers.add(name: "timestamp", value: String(ServerClock.wallMilliseconds()))
        request.body = .bytes(ByteBuffer(string: message.jsonString))
        do {
            let response = try await PushHTTPClients.client(trustRootsFile: settings.trustRootsFile).execute(request, timeout: .seconds(30))
            let body = try? JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 64 * 1024)))
            let (answer, accessTokenRefused) = PushKitAnswer.interpret(
                status: Int(response.status.code), code: body?["code"].flatMap(Self.code), message: body?["message"]?.stringValue ?? "",
                retryAfter: response.headers.first(name: "retry-after")
            )
            if accessTokenRefused { await accessToken.discard(bearer) }
            return answer
        } catch {
            return .later("\(error)")
        }
    }

    /// Honor answers success with the number 200; other codes are Push Kit's.
    private static func code(_ value: JSONValue) -> String? {
        let code = value.stringValue ?? value.int64Value.map(String.init)
        return code == "200" ? PushKitAnswer.Code.success : code
    }
}

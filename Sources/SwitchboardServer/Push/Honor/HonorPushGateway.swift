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
    struct Account: DeliveringAccount {
        let settings: HonorSettings
        let accessToken: PushAccessToken
        let delivery: DevicePushDelivery

        var sendURL: String {
            settings.sendURL.appendingPathComponent("api/v1/\(settings.appID)/sendMessage").absoluteString
        }
    }

    let accounts: PushAccounts<Account>

    init(accounts settings: [HonorSettings], store: any MessageStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        let accounts = settings.map { settings in
            let grant = OAuthClientCredentials(
                tokenURL: settings.tokenURL, clientID: settings.clientID, clientSecret: settings.clientSecret,
                client: PushHTTPClients.client(trustRootsFile: settings.trustRootsFile)
            )
            let delivery = DevicePushDelivery(
                service: "Honor", attempts: settings.attempts, firstRetry: settings.firstRetry, store: store, queue: queue, metrics: metrics, logger: logger
            )
            return (profile: settings.profile, account: Account(settings: settings, accessToken: grant.accessToken(), delivery: delivery))
        }
        guard let made = PushAccounts(accounts) else { throw ConfigError("push.honor: no account") }
        self.accounts = made
    }

    func push(_ notice: PushNotice) async {
        await accounts.push(notice) { account, token in
            await Self.post(HonorMessage.body(token: token, payload: notice.payload, settings: account.settings), as: account)
        }
    }

    private static func post(_ message: JSONValue, as account: Account) async -> DevicePushAnswer {
        let bearer: String
        do {
            bearer = try await account.accessToken.token()
        } catch {
            return .later("no access token: \(error)")
        }
        var request = HTTPClientRequest(url: account.sendURL)
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        request.headers.add(name: "timestamp", value: String(ServerClock.wallMilliseconds()))
        request.body = .bytes(ByteBuffer(string: message.jsonString))
        do {
            let response = try await PushHTTPClients.client(trustRootsFile: account.settings.trustRootsFile).execute(request, timeout: .seconds(30))
            let body = try? JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 64 * 1024)))
            let (answer, accessTokenRefused) = PushKitAnswer.interpret(
                status: Int(response.status.code), code: body?["code"].flatMap(Self.code), message: body?["message"]?.stringValue ?? "",
                retryAfter: response.headers.first(name: "retry-after")
            )
            if accessTokenRefused { await account.accessToken.discard(bearer) }
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

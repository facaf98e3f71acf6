import Hummingbird
import SwitchboardCore

/// Finds who a REST request is, once, before any route of the REST APIs runs, and puts it in
/// the request's context (`RESTRequestContext.caller`; nil: no credential checks out); each
/// route then says whom it takes. A caller names the app in `X-LC-Id` and carries the master
/// key (`X-LC-Key: <master key>,master`), the app key (`X-LC-Key: <app key>`) or, without a
/// key, a master signature (`X-LC-Sign`); keys and signatures are compared in constant time.
struct RESTAuthenticator: RouterMiddleware {
    typealias Context = RESTRequestContext

    private let appID: String
    private let masterKey: String
    private let masterKeyHeader: HeldSecret
    private let appKey: HeldSecret
    private let sessionTokens: SessionTokens
    /// What a session token's age is told by.
    private let clock: ServerClock

    init(appID: String, appKey: String, masterKey: String, sessionTokens: SessionTokens, clock: ServerClock) {
        self.appID = appID
        self.masterKey = masterKey
        masterKeyHeader = HeldSecret(masterKey + ",master")
        self.appKey = HeldSecret(appKey)
        self.sessionTokens = sessionTokens
        self.clock = clock
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.caller = caller(of: request)
        return try await next(request, context)
    }

    private func caller(of request: Request) -> RESTCaller? {
        guard request.header("X-LC-Id") == appID, let credential = credential(of: request) else { return nil }
        return RESTCaller(credential: credential, client: client(of: request))
    }

    /// A key, when one is sent, is the credential; a signature counts only without one.
    private func credential(of request: Request) -> RESTCaller.Credential? {
        if let key = request.header("X-LC-Key") {
            // Both compared, so that the time does not tell which key was close.
            let (master, app) = (masterKeyHeader.matches(key), appKey.matches(key))
            return master ? .masterKey : app ? .appKey : nil
        }
        if let signature = request.header("X-LC-Sign"), RequestSignature.isValidMaster(signature, masterKey: masterKey) {
            return .masterSignature
        }
        return nil
    }

    private func client(of request: Request) -> String? {
        guard let clientID = QueryParameters(request)["client_id"], !clientID.isEmpty,
              let token = request.header("X-LC-IM-Session-Token"),
              sessionTokens.isValid(token, for: clientID, now: clock.now())
        else { return nil }
        return clientID
    }
}

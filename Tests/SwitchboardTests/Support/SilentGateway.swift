import Hummingbird

/// A push gateway that takes requests and never answers them.
enum SilentGateway {
    static func start() async throws -> LocalHTTPServer {
        let router = Router()
        router.post("/push") { _, _ -> HTTPResponse.Status in
            try await Task.sleep(for: .seconds(60))
            return .ok
        }
        return try await LocalHTTPServer.start(router, label: "silent-push")
    }
}

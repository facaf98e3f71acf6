import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A LeanEngine app running in LeanCloud's own Python engine SDK (`leancloud.Engine`, as
/// `scripts/setup-leanengine.sh` installs it), served on a free loopback port.
final class LeanEngineApp: Sendable {
    let port: Int
    private let process: Process

    static let appID = "switchboard-dev"
    static let masterKey = "switchboard-dev-master-key"
    static let hookKey = "engine-hook-key"

    /// The SDK's Python, from `scripts/setup-leanengine.sh` (`scripts/test` runs it).
    static var python: String {
        ProcessInfo.processInfo.environment["SWITCHBOARD_LEANENGINE_PYTHON"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../.build/leanengine/bin/python").standardized.path
    }

    struct NotInstalled: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `cloud` (Python defining hooks on `engine`) the way a LeanEngine app is built;
    /// with `apiServer` (`http://127.0.0.1:<port>`, no trailing slash: the SDK appends
    /// `/1.1/...` to it as it is), its storage calls go there as LeanCloud's platform
    /// points them with `LEANCLOUD_API_SERVER`.
    static func start(_ cloud: String, apiServer: String? = nil) async throws -> LeanEngineApp {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw NotInstalled(description: "LeanCloud's Python engine SDK is not installed at \(python): run scripts/setup-leanengine.sh (scripts/test does)")
        }
        let file = TestServer.temporaryDirectory() + "/app.py"
        try """
            import json, sys
            import leancloud
            from werkzeug.serving import make_server

            leancloud.init('\(appID)', master_key='\(masterKey)')
            engine = leancloud.Engine()

            \(cloud)

            server = make_server('127.0.0.1', 0, engine, threaded=True)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [file]
        // The SDK reads the keys it checks from the environment when it is imported.
        var environment = [
            "LEANCLOUD_APP_ID": appID, "LEANCLOUD_APP_KEY": "app-key", "LEANCLOUD_APP_MASTER_KEY": masterKey,
            "LEANCLOUD_APP_HOOK_KEY": hookKey, "PYTHONUNBUFFERED": "1",
        ]
        environment["LEANCLOUD_API_SERVER"] = apiServer
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Waited for on a thread of its own: blocking one of the few shared by every test
        // running at once would hold them all up.
        let line = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)) }
        }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw NotInstalled(description: "the engine did not start (said \(line.debugDescription))")
        }
        return LeanEngineApp(port: port, process: process)
    }

    private init(port: Int, process: Process) {
        self.port = port
        self.process = process
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Calls a cloud function `@engine.define`d in the app, as an SDK does, with the master
    /// key: the status and the answer's `result` (the whole answer when it has none: an
    /// error's code and message).
    func call(_ function: String, _ parameters: [String: Any] = [:]) async throws -> (Int, Any?) {
        var request = URLRequest(url: url.appendingPathComponent("1.1/functions/\(function)"))
        request.httpMethod = "POST"
        request.setValue(Self.appID, forHTTPHeaderField: "X-LC-Id")
        request.setValue(Self.masterKey + ",master", forHTTPHeaderField: "X-LC-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: parameters)
        let (data, response) = try await URLSession.shared.data(for: request)
        let answer = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let result: Any? = answer?["result"] ?? answer
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, result)
    }

    /// SIGKILL: the SDK's server does not end on SIGTERM.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

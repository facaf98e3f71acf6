import Foundation

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

    /// Starts `cloud` (Python defining hooks on `engine`) the way a LeanEngine app is built.
    static func start(_ cloud: String) async throws -> LeanEngineApp {
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
        process.environment = [
            "LEANCLOUD_APP_ID": appID, "LEANCLOUD_APP_KEY": "app-key", "LEANCLOUD_APP_MASTER_KEY": masterKey,
            "LEANCLOUD_APP_HOOK_KEY": hookKey, "PYTHONUNBUFFERED": "1",
        ]
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

    /// SIGKILL: the SDK's server does not end on SIGTERM.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `switchboard` executable run as a child process on a free loopback port, for what a
/// test cannot do to a server inside its own process: kill it with SIGKILL, time its exit on
/// SIGTERM, or watch it hang without hanging the test with it.
struct ServerProcess: Sendable {
    let pid: pid_t
    let port: Int
    let dataDirectory: String
    /// Where its standard output and error go.
    let log: String

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The built executable, beside the test bundle.
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("switchboard").path
    }

    /// Starts a server on `dataDirectory` (created if missing) with `extraConfig` appended to
    /// a config that turns off the keyword filter, and waits until it listens. With
    /// PostgreSQL, `sharingDatabaseOf` names another server's data folder whose database
    /// this one uses too: another node of the same app, whose heartbeat comes every
    /// `heartbeatSeconds`.
    static func start(
        dataDirectory: String, sharingDatabaseOf other: String? = nil, heartbeatSeconds: Int = 5, extraConfig: String = ""
    ) async throws -> ServerProcess {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let configPath = dataDirectory + "/test-config.yaml"
        let postgres = try await TestDatabase.url(for: other ?? dataDirectory).map {
            ", postgres: { url: \"\($0)\", maxConnections: 3, heartbeatSeconds: \(heartbeatSeconds) }"
        } ?? ""
        let config = """
            server: { logLevel: notice }
            storage: { dataDir: \(dataDirectory)\(postgres) }
            hooks: { dir: \(dataDirectory)/hooks }
            keywords: { enabled: false }
            \(extraConfig)
            """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let log = dataDirectory + "/server-\(UUID().uuidString.prefix(8)).log"
        let pid = try spawn([executable, "serve", "--config", configPath, "--port", "0"], output: log)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let port = listeningPort(inLog: log) {
                return ServerProcess(pid: pid, port: port, dataDirectory: dataDirectory, log: log)
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw Failure(description: "server exited at start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Glibc.kill(pid, SIGKILL)
        throw Failure(description: "server did not start listening within 20 s")
    }

    /// SIGKILL, then reaps the process.
    func kill() {
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// SIGTERM, and how long the process took to exit (it is killed after `limit`).
    func terminate(limit: Duration = .seconds(30)) async throws -> Duration {
        let started = ContinuousClock.now
        Glibc.kill(pid, SIGTERM)
        while ContinuousClock.now - started < limit {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { return ContinuousClock.now - started }
            try await Task.sleep(for: .milliseconds(10))
        }
        kill()
        throw Failure(description: "server still running \(limit) after SIGTERM")
    }

    /// The process's resident memory, in bytes.
    var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Ends the process if a test left it running.
    func stopIfRunning() {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 { kill() }
    }

    private static func listeningPort(inLog path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.contains("switchboard listening") }),
              let range = line.range(of: #"port=\d+"#, options: .regularExpression)
        else { return nil }
        return Int(line[range].dropFirst("port=".count))
    }

    private static func spawn(_ arguments: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard result == 0 else { throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        return pid
    }
}

import CSpawn
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// One running script host, seen from the server: its pid, the two pipes and the page
/// they share.
struct HostProcess: Sendable {
    let pid: pid_t
    /// Requests go here (the host's standard input); non-blocking, so that a caller may write
    /// what fits (see `HostOutbox`).
    let requests: Int32
    /// Replies come from here (the host's standard output).
    let replies: Int32
    let gate: HostGate

    struct LaunchFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The executable hosts run: one whose `main` starts with `SwitchboardCommand`, which
    /// becomes a host when the environment says so. A server built on the library registers
    /// itself; otherwise (tests, benchmarks) the `switchboard` beside the running executable.
    static let registeredExecutable = Mutex<String?>(nil)

    static var executable: String {
        if let registered = registeredExecutable.withLock({ $0 }) { return registered }
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return running.deletingLastPathComponent().appendingPathComponent("switchboard").path
    }

    /// Starts a host that may grow `allowance` bytes past what its scripts take to load.
    static func launch(executable: String, allowance: Int) throws(LaunchFailure) -> HostProcess {
        let gate: HostGate
        do { gate = try HostGate() } catch { throw LaunchFailure(description: error.description) }
        var toHost: [Int32] = [0, 0]
        var fromHost: [Int32] = [0, 0]
        guard pipe(&toHost) == 0 else { throw LaunchFailure(description: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromHost) == 0 else {
            close(toHost[0]); close(toHost[1])
            throw LaunchFailure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Other children the server starts must not hold these pipes open.
        for fd in toHost + fromHost { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(toHost[1], F_SETFL, fcntl(toHost[1], F_GETFL) | O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies, so only these two reach the host.
        posix_spawn_file_actions_adddup2(&actions, toHost[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromHost[1], 1)
        posix_spawn_file_actions_adddup2(&actions, gate.descriptor, HostGate.hostDescriptor)
        // Nothing else of the server's: SwiftNIO accepts sockets without close-on-exec, and a
        // host holding a client's socket would keep it connected after the server closed it.
        let closing = switchboard_spawn_close_from(&actions, HostGate.hostDescriptor + 1)
        let environment = ProcessInfo.processInfo.environment.merging([
            ScriptHost.environmentKey: "1", ScriptHost.allowanceKey: String(allowance), HostGate.environmentKey: String(HostGate.hostDescriptor),
        ]) { _, hosts in hosts }
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var argv = [strdup(executable), strdup("script-host"), nil]
        defer {
            envp.forEach { free($0) }
            argv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = closing == 0 ? posix_spawn(&pid, executable, &actions, nil, &argv, &envp) : closing
        close(toHost[0])
        close(fromHost[1])
        guard result == 0 else {
            close(toHost[1]); close(fromHost[0])
            throw LaunchFailure(description: "cannot start the script host \(executable): \(String(cString: strerror(result)))")
        }
        return HostProcess(pid: pid, requests: toHost[1], replies: fromHost[0], gate: gate)
    }

    /// CPU time the host has used, all its threads, in nanoseconds; 0 if unreadable.
    func cpuTime() -> Int64 {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")")
        else { return 0 }
        // After the command name: state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return 0 }
        return (user + system) * (1_000_000_000 / Int64(sysconf(Int32(_SC_CLK_TCK))))
    }

    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the host to exit and closes the pipes; returns its exit code, or nil if a
    /// signal ended it.
    func reap() -> Int32? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        close(requests)
        close(replies)
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }
}

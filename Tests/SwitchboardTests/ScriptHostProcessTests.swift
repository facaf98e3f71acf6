import Foundation
import Testing
@testable import SwitchboardJS

@Suite(.storeBlind) struct ScriptHostProcessTests {
    /// SwiftNIO accepts sockets without close-on-exec. A host that inherited one kept the
    /// client connected after the server closed it (found as a connection the request-head
    /// deadline could not close while a test's script hosts started).
    @Test func hostsGetNoneOfTheServersDescriptors() throws {
        let path = TestServer.temporaryDirectory() + "/held-open"
        FileManager.default.createFile(atPath: path, contents: nil)
        let descriptor = open(path, O_RDONLY)  // no O_CLOEXEC, like an accepted socket
        defer { close(descriptor) }
        let host = try HostProcess.launch(executable: HostProcess.executable, allowance: 64 << 20)
        defer {
            host.kill()
            _ = host.reap()
        }
        let held = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(host.pid)/fd/\(descriptor)")
        #expect(held != path)
    }

    /// A host that stops reading its requests must not hold its caller's thread: callers only
    /// enqueue, and the worker's own writer thread waits at the pipe. Before, the caller
    /// wrote, and a request larger than the pipe holds blocked a thread of the cooperative
    /// pool in `write` until the host was killed (here: never, and the job beside it never ran).
    @Test(.timeLimit(.minutes(1))) func aHostThatStopsReadingHoldsNoCallersThread() async throws {
        let directory = TestServer.temporaryDirectory()
        let sleeper = directory + "/reads-nothing"
        try "#!/bin/sh\nexec sleep 600\n".write(toFile: sleeper, atomically: true, encoding: .utf8)
        chmod(sleeper, 0o755)
        let worker = ScriptWorker(
            index: 0, executable: sleeper, allowance: 64 << 20, overrunGrace: .seconds(1), onLoss: { _, _ in },
            questions: ScriptQuestions(services: ScriptServices())
        )
        let thread = OneThreadExecutor()
        // Four times what a pipe holds.
        let source = "// " + String(repeating: "x", count: 256 << 10)
        let loading = Task(executorPreference: thread) {
            try? await worker.load(.init(name: "big", version: "1"), source: .file(source), file: "big.js", budget: .seconds(1), envJSON: "{}")
        }
        let besideIt = await Task(executorPreference: thread) { "ran" }.value
        #expect(besideIt == "ran")
        worker.stop()
        #expect(await loading.value == nil)
    }
}

import Foundation
import Logging
import Synchronization
import SwitchboardHooks
import Testing

@testable import SwitchboardJS

/// Scripts written to hurt: what JavaScriptCore's time limit cannot stop in-process, memory
/// bombs, and loops that would hold the workers. Each is contained by killing its script
/// host and, when it keeps at it, unloading it.
@Suite(.storeBlind) struct HostileScriptTests {
    private let directory = TestServer.temporaryDirectory()

    private func library(
        heapCapBytes: Int = 64 << 20, overrunGrace: Duration = .milliseconds(50), hostExecutable: String? = nil
    ) -> (ScriptLibrary, HookPipeline) {
        // Small budgets and grace: these scripts burn all the CPU they are given, and the
        // rest of the suite runs beside them.
        var settings = HookSettings(defaultBudget: .milliseconds(50))
        settings.defaultFailurePolicy = .closed
        let pipeline = HookPipeline(settings: settings, metrics: .inOwnRegistry(), logger: Logger(label: "test"))
        let library = ScriptLibrary(
            settings: .init(directory: directory, workers: 2, heapCapBytes: heapCapBytes, overrunGrace: overrunGrace, hostExecutable: hostExecutable),
            pipeline: pipeline, logger: Logger(label: "test"))
        return (library, pipeline)
    }

    private func write(_ file: String, _ source: String) throws {
        try source.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
    }

    @Test(arguments: [
        "const spin = () => Promise.resolve().then(spin); spin(); return {};",
        "(async () => { for (;;) await 0; })(); return {};",
        "return new Promise(function loop(resolve) { Promise.resolve().then(() => loop(resolve)); });",
    ])
    func endlessPromiseChainsAreStopped(body: String) async throws {
        try write("chain.js", "AV.Cloud.setHookOptions({ budgetMs: 50 }); AV.Cloud.onIMMessageReceived(() => { \(body) });")
        let (library, pipeline) = library()
        #expect(await library.loadAll().isEmpty)
        let outcome = await pipeline.run(MessageReceivedRequest.sample())
        #expect(outcome.isStopped)
        #expect(pipeline.metrics.exposition.contains(#"switchboard_script_hosts_lost_total{reason="overran"} 1"#))

        // The chain died with its host: a script loaded afterwards is served at once.
        try FileManager.default.removeItem(atPath: directory + "/chain.js")
        await library.reload("chain.js")
        try write("fine.js", "AV.Cloud.onIMMessageReceived((request) => ({ content: request.params.content + '!' }));")
        await library.reload("fine.js")
        for _ in 0..<5 {
            #expect(await pipeline.run(MessageReceivedRequest.sample()).request.content.hasSuffix("!"))
        }
    }

    /// Calls waiting behind one that runs past its budget go to the other host then, not
    /// when the stuck host is killed and started again. The grace before the kill is long
    /// here (a second of CPU, more in time on a busy machine), so the calls can only come
    /// back before the stuck one if they were moved.
    @Test func callsWaitingBehindARunawayGoToAnotherHost() async throws {
        try write("chain.js", """
            AV.Cloud.setHookOptions({ budgetMs: 300 });
            AV.Cloud.onIMMessageReceived((request) => {
                if (request.params.content !== 'stuck') return { content: request.params.content + '!' };
                const spin = () => Promise.resolve().then(spin);
                spin();
                return {};
            });
            """)
        let (library, pipeline) = library(overrunGrace: .seconds(1))
        #expect(await library.loadAll().isEmpty)
        let finished = FinishOrder()
        let stuck = Task { [pipeline, finished] in
            let outcome = await pipeline.run(MessageReceivedRequest.sample("stuck"))
            finished.note("stuck")
            return outcome.isStopped
        }
        // Running, not yet past its budget: the host it runs on still takes calls.
        try await Task.sleep(for: .milliseconds(100))
        let contents = await withTaskGroup(of: String.self) { group in
            for number in 0..<8 {
                group.addTask { [pipeline, finished] in
                    let content = await pipeline.run(MessageReceivedRequest.sample("m\(number)")).request.content
                    finished.note(content)
                    return content
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await stuck.value)
        #expect(Set(contents) == Set((0..<8).map { "m\($0)!" }))
        #expect(finished.names.last == "stuck", "\(finished.names)")
    }

    @Test func aMemoryBombIsStoppedNearTheCapAndUnloaded() async throws {
        try write("bomb.js", """
            AV.Cloud.setHookOptions({ budgetMs: 2000 });
            const kept = [];
            AV.Cloud.onIMMessageReceived(() => { for (;;) kept.push(new Uint8Array(8 << 20).fill(1)); });
            """)
        let (library, pipeline) = library(heapCapBytes: 16 << 20)
        #expect(await library.loadAll().isEmpty)
        #expect(await pipeline.run(MessageReceivedRequest.sample()).isStopped)
        #expect(!pipeline.hasHandlers(for: .messageReceived))
        #expect(library.status["bomb"]?.error?.message.contains("bytes in a call") == true)
        #expect(pipeline.metrics.exposition.contains(#"switchboard_script_hosts_lost_total{reason="memory"} 1"#))
    }

    @Test func aScriptThatKeepsRunningOutOfTimeIsUnloaded() async throws {
        try write("loop.js", "AV.Cloud.setHookOptions({ budgetMs: 20 }); AV.Cloud.onIMMessageReceived(() => { for (;;) {} });")
        let (library, pipeline) = library()
        await library.loadAll()
        for _ in 0..<3 { #expect(await pipeline.run(MessageReceivedRequest.sample()).isStopped) }
        #expect(!pipeline.hasHandlers(for: .messageReceived))
        #expect(library.status["loop"]?.error?.message.contains("ran past its budget 3 times") == true)
        // Its file changing brings it back.
        try write("loop.js", "AV.Cloud.onIMMessageReceived(() => ({}));")
        #expect(await library.reload("loop.js") == nil)
        #expect(pipeline.hasHandlers(for: .messageReceived))
    }

    /// A host's start is not charged to its first request, however long it takes: here
    /// each host burns CPU in a shell loop before it becomes the real host (CPU time
    /// survives `exec`), several times the load's budget and grace.
    @Test func aHostsStartIsNotChargedToItsFirstLoad() async throws {
        let slowStart = directory + "/slow-start-host"
        try """
            #!/bin/sh
            i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done
            exec "\(HostProcess.executable)" "$@"
            """.write(toFile: slowStart, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: slowStart)
        try write("fine.js", "AV.Cloud.onIMMessageReceived((request) => ({ content: request.params.content + '!' }));")
        let (library, pipeline) = library(hostExecutable: slowStart)
        let errors = await library.loadAll()
        #expect(errors.isEmpty, "\(errors)")
        #expect(await pipeline.run(MessageReceivedRequest.sample("fine")).request.content == "fine!")
    }

    @Test func topLevelCodeThatNeverEndsFailsTheLoad() async throws {
        try write("stuck.js", "(async () => { for (;;) await 0; })();")
        let (library, _) = library()
        let errors = await library.loadAll()
        #expect(errors.first?.message.contains("ran past its budget while loading") == true)
    }
}

/// The order calls finished in.
private final class FinishOrder: Sendable {
    private let order = Mutex<[String]>([])

    func note(_ name: String) { order.withLock { $0.append(name) } }
    var names: [String] { order.withLock { $0 } }
}

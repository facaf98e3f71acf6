import Foundation
import Logging
import SwitchboardHooks
import SwitchboardJSON
import Testing

@testable import SwitchboardJS

/// Scripts loaded from a folder into the pipeline, reloaded as files change.
@Suite(.storeBlind) struct ScriptLibraryTests {
    private let directory = TestServer.temporaryDirectory()

    private func library(
        _ settings: HookSettings = HookSettings(), workers: Int = 2, heapCapBytes: Int = 64 << 20, overrunGrace: Duration = .seconds(1),
        overrunLimit: Int = 3
    ) -> (ScriptLibrary, HookPipeline) {
        let pipeline = HookPipeline(settings: settings, metrics: .inOwnRegistry(), logger: Logger(label: "test"))
        let library = ScriptLibrary(
            settings: .init(directory: directory, workers: workers, heapCapBytes: heapCapBytes, overrunGrace: overrunGrace, overrunLimit: overrunLimit),
            pipeline: pipeline, logger: Logger(label: "test"))
        return (library, pipeline)
    }

    private func write(_ file: String, _ source: String) throws {
        try source.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
    }

    @Test func scriptsJoinThePipelineWithTheirOptions() async throws {
        try write("shout.js", """
            AV.Cloud.setHookOptions({ priority: 7, budgetMs: 30, onFailure: 'closed' });
            AV.Cloud.onIMMessageReceived((request) => ({ content: request.params.content.toUpperCase() }));
            """)
        let (library, pipeline) = library()
        #expect(await library.loadAll().isEmpty)
        let chain = pipeline.resolvedChain(for: .messageReceived)
        #expect(chain.map(\.name) == ["shout"])
        #expect(chain.first?.kind == "script")
        #expect(chain.first?.priority == 7)
        #expect(chain.first?.budget == .milliseconds(30))
        #expect(chain.first?.failurePolicy == .closed)
        #expect(pipeline.resolvedChain(for: .messageSent).isEmpty)
        #expect(await pipeline.run(MessageReceivedRequest.sample("hi")).request.content == "HI")
    }

    @Test func aBrokenEditKeepsThePreviousVersion() async throws {
        try write("tag.js", "AV.Cloud.onIMMessageReceived(() => ({ content: 'v1' }));")
        let (library, pipeline) = library()
        await library.loadAll()
        try write("tag.js", "AV.Cloud.onIMMessageReceived(() => ({ content: 'v2' })\n  oops(;")
        let error = try #require(await library.reload("tag.js"))
        #expect(error.file == "tag.js")
        #expect(error.line == 2)
        #expect(await pipeline.run(MessageReceivedRequest.sample()).request.content == "v1")
        #expect(library.status["tag"]?.error == error)
        #expect(library.status["tag"]?.activeVersion != nil)

        try write("tag.js", "AV.Cloud.onIMMessageReceived(() => ({ content: 'v3' }));")
        #expect(await library.reload("tag.js") == nil)
        #expect(await pipeline.run(MessageReceivedRequest.sample()).request.content == "v3")
        #expect(library.status["tag"]?.error == nil)
    }

    @Test func deletingAFileRemovesItsHandlers() async throws {
        try write("gone.js", "AV.Cloud.onIMMessageReceived(() => ({ drop: true }));")
        let (library, pipeline) = library()
        await library.loadAll()
        #expect(await pipeline.run(MessageReceivedRequest.sample()).isStopped)
        try FileManager.default.removeItem(atPath: directory + "/gone.js")
        await library.reload("gone.js")
        #expect(!(await pipeline.run(MessageReceivedRequest.sample())).isStopped)
        #expect(library.status["gone"] == nil)
    }

    @Test func theWatcherReloadsAChangedFile() async throws {
        try write("live.js", "AV.Cloud.onIMMessageReceived(() => ({ content: 'before' }));")
        let (library, pipeline) = library()
        await library.loadAll()
        let watching = Task { try await library.watch() }
        defer { watching.cancel() }
        try await Task.sleep(for: .milliseconds(100))
        try write("live.js", "AV.Cloud.onIMMessageReceived(() => ({ content: 'after' }));")
        let deadline = ContinuousClock.now + .seconds(5)
        var content = ""
        while ContinuousClock.now < deadline {
            content = await pipeline.run(MessageReceivedRequest.sample()).request.content
            if content == "after" { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(content == "after")
    }

    @Test(arguments: [FailurePolicy.open, .closed])
    func anInfiniteLoopIsStoppedWithinItsBudget(policy: FailurePolicy) async throws {
        try write("spin.js", """
            AV.Cloud.setHookOptions({ budgetMs: 50, onFailure: '\(policy.rawValue)' });
            AV.Cloud.onIMMessageReceived(() => { while (true) {} });
            """)
        let (library, pipeline) = library()
        await library.loadAll()
        let outcome = await pipeline.run(MessageReceivedRequest.sample())
        #expect(outcome.isStopped == (policy == .closed))
        #expect(pipeline.metrics.exposition.contains(#"switchboard_hook_timeouts_total{handler="spin",kind="script",point="_messageReceived"} 1"#))
        // The worker is free again: the next call is stopped and answered too.
        _ = await pipeline.run(MessageReceivedRequest.sample())
        #expect(pipeline.metrics.exposition.contains(#"switchboard_hook_timeouts_total{handler="spin",kind="script",point="_messageReceived"} 2"#))
    }

    @Test func runawayLoopsAreStoppedEvenWhenManyRunAtOnce() async throws {
        // With signal-based traps JavaScriptCore missed the time limit when several VMs spun
        // at once and a worker looped forever; polling traps fixed it. A miss now shows as a
        // host killed after the grace instead of a call stopped by the VM.
        try write("spin.js", "AV.Cloud.setHookOptions({ budgetMs: 20 }); AV.Cloud.onIMMessageReceived(() => { let n = 0; while (true) { n = (n + 1) % 7; } });")
        try write("spin2.js", "AV.Cloud.setHookOptions({ budgetMs: 20 }); AV.Cloud.onIMMessageSent(() => { for (;;) {} });")
        let (library, pipeline) = library(overrunLimit: 1000)
        await library.loadAll()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask { _ = await pipeline.run(MessageReceivedRequest.sample()) }
                group.addTask { _ = await pipeline.run(MessageSentNotification.sample()) }
            }
        }
        let metrics = pipeline.metrics.exposition
        #expect(metrics.contains(#"switchboard_hook_timeouts_total{handler="spin",kind="script",point="_messageReceived"} 40"#))
        #expect(metrics.contains(#"switchboard_hook_timeouts_total{handler="spin2",kind="script",point="_messageSent"} 40"#))
        #expect(metrics.contains(#"switchboard_script_hosts_lost_total{reason="overran"} 0"#))
    }

    @Test func manyCallsAtOnceEachGetTheirOwnAnswer() async throws {
        // One host, so that every call goes down the same pipe while others are being written.
        try write("echo.js", "AV.Cloud.onIMMessageReceived((request) => ({ content: '<' + request.params.content + '>' }));")
        let (library, pipeline) = library(workers: 1)
        await library.loadAll()
        let answers = await withTaskGroup(of: (String, String).self) { group in
            for index in 0..<500 {
                group.addTask { ("\(index)", await pipeline.run(MessageReceivedRequest.sample("\(index)")).request.content) }
            }
            return await group.reduce(into: [:]) { answers, answer in answers[answer.0] = answer.1 }
        }
        #expect(answers.count == 500)
        #expect(answers.allSatisfy { $0.value == "<\($0.key)>" })
    }

    @Test func aCallTheCPULimitCannotStopIsLetGoAfterTheGrace() async throws {
        // Sorting a big typed array is native code that the CPU limit cannot interrupt: it
        // runs for a good fraction of a second whatever the budget. The budget leaves room to
        // allocate the array first: with 10 ms a loaded machine stopped the call during the
        // allocation, which the CPU limit can interrupt, and nothing was left to let go.
        try write("sorter.js", """
            AV.Cloud.setHookOptions({ budgetMs: 200, onFailure: 'closed' });
            AV.Cloud.onIMMessageReceived(() => { new Float64Array(2e7).sort(); return {}; });
            """)
        // The array is 160 MB, which is the default host allowance (2 × 64 + 32 MB): a host
        // killed for its memory instead counted as `memory`. This test is about time.
        let (library, pipeline) = library(heapCapBytes: 256 << 20, overrunGrace: .milliseconds(50))
        await library.loadAll()
        let outcome = await pipeline.run(MessageReceivedRequest.sample())
        #expect(outcome.isStopped)
        #expect(pipeline.metrics.exposition.contains(#"switchboard_script_hosts_lost_total{reason="overran"} 1"#))
    }

    @Test(arguments: [FailurePolicy.open, .closed])
    func aThrowingScriptFollowsItsFailurePolicy(policy: FailurePolicy) async throws {
        try write("throws.js", "AV.Cloud.onIMMessageReceived(() => { throw new Error('bad day'); });")
        var settings = HookSettings()
        settings.handlers["throws"] = .init(policy: .init(failurePolicy: policy))
        let (library, pipeline) = library(settings)
        await library.loadAll()
        let outcome = await pipeline.run(MessageReceivedRequest.sample())
        #expect(outcome.isStopped == (policy == .closed))
        #expect(outcome.stop?.detail == (policy == .closed ? "hook throws failed" : nil))
    }

    @Test func aScriptPastItsHeapCapIsUnloaded() async throws {
        try write("hog.js", """
            const kept = [];
            AV.Cloud.onIMMessageReceived(() => { for (let i = 0; i < 5000; i++) kept.push({ i, text: 'x'.repeat(64) + i }); return {}; });
            """)
        let (library, pipeline) = library(heapCapBytes: 8 << 20)
        await library.loadAll()
        for _ in 0..<200 where pipeline.hasHandlers(for: .messageReceived) {
            _ = await pipeline.run(MessageReceivedRequest.sample())
        }
        #expect(!pipeline.hasHandlers(for: .messageReceived))
        #expect(library.status["hog"]?.error?.message.contains("past the cap") == true)
    }

    @Test func aScriptThatGrabsALotAtOnceIsUnloadedAtOnce() async throws {
        // One call taking 64 MB: measured straight away, not after the next fifteen calls.
        try write("grab.js", """
            const kept = [];
            AV.Cloud.onIMMessageReceived(() => { kept.push(new Uint8Array(64 << 20).fill(1)); return {}; });
            """)
        let (library, pipeline) = library(heapCapBytes: 32 << 20)
        await library.loadAll()
        _ = await pipeline.run(MessageReceivedRequest.sample())
        #expect(!pipeline.hasHandlers(for: .messageReceived))
        #expect(library.status["grab"]?.error?.message.contains("past the cap") == true)
    }

    @Test func resultsOfTheWrongShapeAreFailures() async throws {
        try write("odd.js", "AV.Cloud.onIMMessageReceived(() => ({ code: 'not a number', drop: true }));")
        var settings = HookSettings()
        settings.defaultFailurePolicy = .closed
        let (library, pipeline) = library(settings)
        await library.loadAll()
        #expect(await pipeline.run(MessageReceivedRequest.sample()).stop?.failed == true)
    }
}

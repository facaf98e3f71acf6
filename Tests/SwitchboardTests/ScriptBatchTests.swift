import Foundation
import Logging
import SwitchboardHooks
import SwitchboardJSON
import Testing

@testable import SwitchboardJS

/// A script host answers the calls it reads together in one batch, holding back the replies
/// of those that asked the server nothing until it has nothing left to do. A host that dies
/// in a later call of the batch is blamed on that call alone: the calls before it are
/// answered (run again on the next host if their replies went with it), never failed.
@Suite(.storeBlind) struct ScriptBatchTests {
    private let directory = TestServer.temporaryDirectory()

    @Test func callsBatchedWithOneThatKillsTheHostAreAnswered() async throws {
        try """
            AV.Cloud.setHookOptions({ budgetMs: 2000 });
            AV.Cloud.onIMMessageReceived((request) => {
                // Keeps the host busy while the others queue up behind it, to be read together.
                if (request.params.content === 'slow') { const end = Date.now() + 200; while (Date.now() < end) {} }
                return { content: request.params.content + '!' };
            });
            """.write(toFile: directory + "/fine.js", atomically: true, encoding: .utf8)
        try """
            AV.Cloud.setHookOptions({ budgetMs: 2000 });
            const kept = [];
            AV.Cloud.onIMConversationStart(() => { for (;;) kept.push(new Uint8Array(8 << 20).fill(1)); });
            """.write(toFile: directory + "/bomb.js", atomically: true, encoding: .utf8)
        var settings = HookSettings(defaultBudget: .milliseconds(2000))
        settings.defaultFailurePolicy = .closed
        let pipeline = HookPipeline(settings: settings, metrics: .inOwnRegistry(), logger: Logger(label: "test"))
        let library = ScriptLibrary(
            settings: .init(directory: directory, workers: 1, heapCapBytes: 16 << 20), pipeline: pipeline, logger: Logger(label: "test")
        )
        #expect(await library.loadAll().isEmpty)

        let slow = Task { await pipeline.run(MessageReceivedRequest.sample("slow")).request.content }
        try await Task.sleep(for: .milliseconds(50))
        let fine = (0..<8).map { number in
            Task { await pipeline.run(MessageReceivedRequest.sample("m\(number)")).request.content }
        }
        try await Task.sleep(for: .milliseconds(20))
        let bomb = await pipeline.run(ConversationStartRequest(initBy: "alice", members: ["bob"], attr: .object([:])))

        #expect(bomb.isStopped)
        #expect(await slow.value == "slow!")
        var answered: [String] = []
        for task in fine { answered.append(await task.value) }
        #expect(answered == (0..<8).map { "m\($0)!" })
        #expect(pipeline.metrics.exposition.contains(#"switchboard_script_hosts_lost_total{reason="memory"} 1"#))
    }
}

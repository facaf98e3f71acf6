import Foundation
import Logging
import Synchronization
import SwitchboardHooks
import SwitchboardJSON
import Testing

@Suite(.storeBlind) struct HookPipelineTests {
    /// Tests of budgets set their own; the others get a budget no loaded machine reaches,
    /// so that a handler's result is never dropped for a late wake-up.
    private func pipeline(settings: HookSettings = HookSettings(defaultBudget: .seconds(60)), _ plugins: [any SwitchboardPlugin]) -> HookPipeline {
        let pipeline = HookPipeline(settings: settings, metrics: .inOwnRegistry(), logger: Logger(label: "test"))
        for plugin in plugins { pipeline.register(PluginHandler(plugin)) }
        return pipeline
    }

    @Test func runsByPriorityThenNameEachSeeingThePreviousOutput() async {
        let order = Mutex<[String]>([])
        func appender(_ name: String, priority: Int) -> ScriptedPlugin {
            ScriptedPlugin(name: name, priority: priority) { request in
                order.withLock { $0.append(name) }
                return MessageResult(content: request.content + "+" + name)
            }
        }
        let chain = pipeline([appender("b", priority: 0), appender("z", priority: 5), appender("a", priority: 0)])
        let outcome = await chain.run(MessageReceivedRequest.sample("x"))
        #expect(order.withLock { $0 } == ["z", "a", "b"])
        #expect(outcome.request.content == "x+z+a+b")
        #expect(chain.chain(for: .messageReceived).map(\.handler.name) == ["z", "a", "b"])
    }

    @Test func configOverridesPriorityAndCanDisable() async {
        var settings = HookSettings()
        settings.handlers["late"] = .init(priority: 100)
        settings.handlers["off"] = .init(enabled: false)
        let chain = pipeline(settings: settings, [
            ScriptedPlugin(name: "early", priority: 10) { _ in .passThrough },
            ScriptedPlugin(name: "late", priority: 0) { _ in .passThrough },
            ScriptedPlugin(name: "off") { _ in MessageResult(drop: true) },
        ])
        #expect(chain.chain(for: .messageReceived).map(\.handler.name) == ["late", "early"])
        #expect(!(await chain.run(MessageReceivedRequest.sample())).isStopped)
    }

    @Test func dropStopsTheChainAndSaysWho() async {
        let reached = Mutex(false)
        let chain = pipeline([
            ScriptedPlugin(name: "censor", priority: 1) { _ in MessageResult(drop: true, code: 77, detail: "no spam") },
            ScriptedPlugin(name: "after") { _ in reached.withLock { $0 = true }; return .passThrough },
        ])
        let outcome = await chain.run(MessageReceivedRequest.sample())
        #expect(outcome.stop?.handler == "censor")
        #expect(outcome.stop?.code == 77)
        #expect(outcome.stop?.detail == "no spam")
        #expect(outcome.stop?.failed == false)
        #expect(!reached.withLock { $0 })
    }

    @Test func contentPatchUsesTheLastRewriterAndDefaultsToCode1() async {
        let quiet = pipeline([ScriptedPlugin(name: "lower") { MessageResult(content: $0.content.lowercased()) }])
        let patch = await quiet.run(MessageReceivedRequest.sample("HI")).contentPatch
        #expect(patch?.code == 1)
        #expect(patch?.detail == "modified by hook")
        let coded = pipeline([ScriptedPlugin(name: "mask") { _ in MessageResult(code: 12, detail: "masked", content: "***") }])
        let codedPatch = await coded.run(MessageReceivedRequest.sample()).contentPatch
        #expect(codedPatch?.code == 12 && codedPatch?.detail == "masked")
        let untouched = pipeline([ScriptedPlugin(name: "noop") { _ in .passThrough }])
        #expect(await untouched.run(MessageReceivedRequest.sample()).contentPatch == nil)
    }

    @Test(arguments: [FailurePolicy.open, .closed])
    func aHandlerPastItsBudgetIsAbandoned(policy: FailurePolicy) async {
        let finished = Mutex(false)
        let sleeper = ScriptedPlugin(name: "sleeper", priority: 1, budget: .milliseconds(50), failurePolicy: policy) { _ in
            // Ignores cancellation on purpose: the pipeline must not wait for it. Long past
            // the budget, so that a loaded machine's late timer still fires first.
            await withCheckedContinuation { done in DispatchQueue.global().asyncAfter(deadline: .now() + 60) { done.resume() } }
            finished.withLock { $0 = true }
            return MessageResult(drop: true)
        }
        let next = ScriptedPlugin(name: "next") { MessageResult(content: $0.content + "!") }
        let chain = pipeline([sleeper, next])
        let outcome = await chain.run(MessageReceivedRequest.sample("go"))
        #expect(!finished.withLock { $0 }, "the pipeline waited for the handler past its budget")
        switch policy {
        case .open:
            #expect(!outcome.isStopped)
            #expect(outcome.request.content == "go!")
        case .closed:
            #expect(outcome.stop?.handler == "sleeper")
            #expect(outcome.stop?.failed == true)
            #expect(outcome.stop?.detail == "hook sleeper timed out")
        }
        let metrics = chain.metrics.exposition
        #expect(metrics.contains(#"switchboard_hook_timeouts_total{handler="sleeper",kind="plugin",point="_messageReceived"} 1"#))
    }

    @Test(arguments: [FailurePolicy.open, .closed])
    func aThrowingHandlerFollowsItsFailurePolicy(policy: FailurePolicy) async {
        struct Broken: Error {}
        var settings = HookSettings()
        settings.points[.messageReceived] = .init(failurePolicy: policy)
        let chain = pipeline(settings: settings, [ScriptedPlugin(name: "broken") { _ in throw Broken() }])
        let outcome = await chain.run(MessageReceivedRequest.sample())
        #expect(outcome.isStopped == (policy == .closed))
        #expect(chain.metrics.exposition.contains(#"switchboard_hook_failures_total{handler="broken",kind="plugin",point="_messageReceived"} 1"#))
    }

    @Test func metricsCountCallsDropsAndModifications() async {
        let chain = pipeline([ScriptedPlugin(name: "judge") { request in
            request.content == "bad" ? MessageResult(drop: true) : MessageResult(content: request.content.uppercased())
        }])
        _ = await chain.run(MessageReceivedRequest.sample("bad"))
        _ = await chain.run(MessageReceivedRequest.sample("good"))
        _ = await chain.run(MessageReceivedRequest.sample("GOOD"))
        let text = chain.metrics.exposition
        #expect(text.contains(#"switchboard_hook_calls_total{handler="judge",kind="plugin",point="_messageReceived"} 3"#))
        #expect(text.contains(#"switchboard_hook_drops_total{handler="judge",kind="plugin",point="_messageReceived"} 1"#))
        #expect(text.contains(#"switchboard_hook_modifications_total{handler="judge",kind="plugin",point="_messageReceived"} 1"#))
        #expect(text.contains("switchboard_hook_duration_seconds_bucket"))
    }

    @Test func scriptResultsAreReadLeniently() throws {
        let result = try MessageResult(json: JSONValue(parsing: #"{"drop":1,"code":4.0,"detail":"x","toPeers":["a"]}"#))
        #expect(result == MessageResult(drop: true, code: 4, detail: "x", toPeers: ["a"]))
        #expect(try MessageResult(json: .null) == .passThrough)
        #expect(throws: HookResultError.self) { try MessageResult(json: JSONValue(parsing: #"{"code":"four"}"#)) }
        #expect(throws: HookResultError.self) { try MessageResult(json: JSONValue(parsing: "[1]")) }
        let push = try ReceiversOfflineResult(json: JSONValue(parsing: #"{"pushMessage":"{\"alert\":\"hi\"}"}"#))
        #expect(push.pushMessage == .object(["alert": .string("hi")]))
    }
}

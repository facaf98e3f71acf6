import Foundation
import Testing

@testable import SwitchboardJS

/// The sandbox, straight on JavaScriptCore.
@Suite(.storeBlind) struct ScriptContextTests {
    private func load(_ source: String, budget: Duration = .milliseconds(200)) throws(ScriptError) -> ScriptContext {
        try ScriptContext(source: source, file: "test.js", budget: budget)
    }

    @Test func bothApiFormsRegisterHooks() throws {
        let script = try load("""
            AV.Cloud.onIMMessageReceived((request) => ({ content: request.params.content + '!' }));
            AV.Cloud.define('_conversationStart', () => ({ reject: true }));
            """)
        #expect(Set(script.hooks) == ["_messageReceived", "_conversationStart"])
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"content":"hi"}"#) == .value(#"{"content":"hi!"}"#))
        #expect(script.invoke(hook: "_conversationStart", paramsJSON: "{}") == .value(#"{"reject":true}"#))
    }

    @Test func promisesAndAsyncFunctionsSettle() throws {
        let script = try load("""
            AV.Cloud.onIMMessageReceived(async (request) => { await null; return { drop: request.params.n > 1 }; });
            AV.Cloud.onIMMessageSent(() => new Promise(() => {}));
            AV.Cloud.onIMConversationAdd(() => Promise.reject(new Error('nope')));
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"n":2}"#) == .value(#"{"drop":true}"#))
        #expect(script.invoke(hook: "_messageSent", paramsJSON: "{}") == .failed("the hook never answered: its Promise never settled, or it never called response.success or response.error"))
        let message = script.failure(of: "_conversationAdd")
        #expect(message.hasPrefix("nope"))
    }

    @Test func runawayLoopsAreStoppedAndTheScriptStillWorks() throws {
        let script = try load("""
            AV.Cloud.onIMMessageReceived((request) => { if (request.params.spin) { while (true) {} } return {}; });
            AV.Cloud.onIMMessageSent(async () => { await null; while (true) {} });
            """, budget: .milliseconds(50))
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"spin":true}"#) == .timedOut)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"spin":false}"#) == .value("{}"))
        let microtask = script.invoke(hook: "_messageSent", paramsJSON: "{}")
        #expect(microtask == .timedOut || microtask == .failed("the hook never answered: its Promise never settled, or it never called response.success or response.error"))
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"spin":false}"#) == .value("{}"))
    }

    @Test func loadErrorsSayFileAndLine() {
        #expect(throws: ScriptError.self) { try load("let x = ;") }
        do {
            _ = try load("\n\nthrow new Error('boom');")
            Issue.record("expected a load error")
        } catch {
            #expect(error.file == "test.js")
            #expect(error.line == 3)
            #expect(error.message.contains("boom"))
        }
    }

    @Test(arguments: [
        "eval('1+1')",
        "new Function('return 1')()",
        "(function(){}).constructor('return 1')()",
        "(async function(){}).constructor('return 1')",
        "require('fs')",
        "new WebSocket('ws://example.com')",
        "process.exit(1)",
        "setTimeout(() => {}, 1)",
        "WebAssembly.Module",
        "XMLHttpRequest",
        "import('fs')",
        "new ShadowRealm().evaluate('1+1')",
    ])
    func escapesFail(_ attempt: String) throws {
        let script = try load("AV.Cloud.onIMMessageReceived(async () => { const result = await (\(attempt)); return { content: String(result) }; });")
        guard case .failed = script.invoke(hook: "_messageReceived", paramsJSON: "{}") else {
            Issue.record("\(attempt) worked in the sandbox")
            return
        }
    }

    @Test func scriptsDoNotShareGlobals() throws {
        let polluter = try load("""
            globalThis.shared = 'leak'; Object.prototype.polluted = true; Array.prototype.push = () => 0; JSON.stringify = () => '{"drop":true}';
            AV.Cloud.onIMMessageReceived(() => ({}));
            """)
        _ = polluter.invoke(hook: "_messageReceived", paramsJSON: "{}")
        let victim = try load("""
            AV.Cloud.onIMMessageReceived(() => ({ content: [typeof shared, String(({}).polluted), String([].push(1))].join(',') }));
            """)
        #expect(victim.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"undefined,undefined,1"}"#))
    }

    @Test func theHostEntryPointCannotBeReplaced() throws {
        let script = try load("""
            try { globalThis.__switchboard = null; } catch (e) {}
            try { AV.Cloud.define = null; } catch (e) {}
            AV.Cloud.onIMMessageReceived(() => ({ content: 'still here' }));
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"still here"}"#))
    }

    @Test func consoleLinesAreCollectedAndBounded() throws {
        let script = try load("""
            console.log('loaded', { a: 1 });
            AV.Cloud.onIMMessageReceived(() => { console.warn('careful'); for (let i = 0; i < 500; i++) console.log(i); return {}; });
            """)
        #expect(script.drainLogs().map { "\($0.0) \($0.1)" } == [#"info loaded {"a":1}"#])
        _ = script.invoke(hook: "_messageReceived", paramsJSON: "{}")
        let lines = script.drainLogs()
        #expect(lines.first.map { "\($0.0) \($0.1)" } == "warning careful")
        #expect(lines.count == 100)
    }

    @Test func unknownHookNamesAreALoadError() {
        #expect(throws: ScriptError.self) { try load("AV.Cloud.define('_somethingElse', () => ({}));") }
    }

    @Test func optionsAreReported() throws {
        let script = try load("AV.Cloud.setHookOptions({ priority: 5, budgetMs: 20, onFailure: 'closed' });")
        #expect(script.optionsJSON == #"{"priority":5,"budgetMs":20,"onFailure":"closed"}"#)
        #expect(script.heapSize(collectingYoungFirst: false) > 0)
    }
}

import Foundation
import Synchronization
import SwitchboardData
import SwitchboardJSON
import SwitchboardStore
import Logging
import SwitchboardHooks
import Testing

@testable import SwitchboardJS

/// LeanEngine cloud code as real projects write it: `require('leanengine')`, callback-style
/// handlers, ordinary cloud functions and storage classes beside the IM hooks.
@Suite(.storeBlind) struct LeanEngineScriptTests {
    private func load(_ source: String, env: [String: String] = [:]) throws(ScriptError) -> ScriptContext {
        try ScriptContext(source: source, file: "cloud.js", budget: .milliseconds(200), env: env)
    }

    @Test func callbackHandlersAnswerThroughResponse() throws {
        let script = try load("""
            var AV = require('leanengine');
            AV.Cloud.define('_messageReceived', function (request, response) {
              var text = request.params.content;
              if (text === 'nothing') return response.success();
              if (text === 'bad') return response.error('not allowed');
              response.success({ content: text.replace('darn', '****') });
            });
            AV.Cloud.define('_receiversOffline', function (request, response) {
              var json = { badge: 'Increment', sound: 'default', _profile: 'dev', alert: request.params.content.slice(0, 6) };
              response.success({ pushMessage: JSON.stringify(json) });
            });
            AV.Cloud.define('_messageSent', function (request, response) { /* forgets to answer */ });
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"content":"oh darn"}"#) == .value(#"{"content":"oh ****"}"#))
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"content":"nothing"}"#) == .value("{}"))
        let message = script.failure(of: "_messageReceived", paramsJSON: #"{"content":"bad"}"#)
        #expect(message.contains("not allowed"))
        #expect(script.invoke(hook: "_receiversOffline", paramsJSON: #"{"content":"hello world"}"#)
            == .value(#"{"pushMessage":"{\"badge\":\"Increment\",\"sound\":\"default\",\"_profile\":\"dev\",\"alert\":\"hello \"}"}"#))
        #expect(script.invoke(hook: "_messageSent", paramsJSON: "{}") == .failed("the hook never answered: its Promise never settled, or it never called response.success or response.error"))
    }

    @Test func everyNameOfTheSDKIsTheSameObject() throws {
        let script = try load("""
            var AV = require('leanengine');
            const same = [require('leancloud-storage'), require('avoscloud-sdk'), globalThis.AV].every((other) => other === AV);
            AV.Cloud.onIMMessageReceived(() => ({ content: String(same) }));
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"true"}"#))
    }

    @Test func aModuleThatCannotBeProvidedLoadsAndFailsTheCallThatUsesItNamingItAndTheLine() throws {
        let script = try load("""
            var AV = require('leanengine');
            var fs = require('fs');
            AV.Cloud.onIMMessageReceived(() => ({ content: fs.readFileSync('/etc/hostname', 'utf8') }));
            AV.Cloud.onIMMessageSent(() => ({ loaded: typeof fs }));
            """)
        let message = script.failure(of: "_messageReceived")
        #expect(message.contains("module 'fs' reaches files, processes or the network"))
        #expect(message.contains("required at cloud.js:2"))
        #expect(script.drainLogs().contains { $0.0 == "refused" && $0.1.hasPrefix("cloud.js:3: module 'fs'") })
        #expect(script.invoke(hook: "_messageSent", paramsJSON: "{}") == .value(#"{"loaded":"function"}"#))
    }

    @Test func whatIsNotRunLoadsAndIsListed() throws {
        let script = try load("""
            var AV = require('leanengine');
            AV.init({ appId: 'x', appKey: 'y', masterKey: 'z' });
            AV.Cloud.useMasterKey();
            var OfflineMessage = AV.Object.extend('OfflineMessage');
            AV.Cloud.define('hello', function (request, response) { response.success('Hello world!'); });
            AV.Cloud.beforeSave('Post', function (request, response) { response.success(); });
            AV.Cloud.onLogin(function (request) {});
            AV.Cloud.define('_receiversOffline', function (request, response) {
              var message = new OfflineMessage();
              message.set('content', request.params.content);
              message.save().then(() => response.success({}), (error) => response.error(error));
            });
            module.exports = AV.Cloud;
            """)
        #expect(script.hooks == ["_receiversOffline"])
        #expect(script.inert == ["function hello", "beforeSave Post", "onLogin"])
        // Its storage class is the app's data: the save asks the server.
        guard case .asking(let questions) = script.invoke(hook: "_receiversOffline", paramsJSON: #"{"content":"x"}"#) else {
            Issue.record("the save asked nothing")
            return
        }
        let request = try JSONValue(parsing: questions).arrayValue?.first?["request"]
        #expect(request == ["action": "create", "className": "OfflineMessage", "body": ["content": "x"], "fetchWhenSave": false])
    }

    @Test func processEnvHoldsTheConfiguredValuesOnly() throws {
        let script = try load("""
            AV.Cloud.onIMMessageReceived(() => ({ content: [process.env.SITE, typeof process.env.PATH, String(__production)].join(',') }));
            """, env: ["SITE": "demo"])
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"demo,undefined,true"}"#))
    }

    @Test func noGlobalBeyondECMAScriptAndTheDocumentedOnes() throws {
        let script = try load("AV.Cloud.onIMMessageReceived(() => ({ content: Object.getOwnPropertyNames(globalThis).join(' ') }));")
        guard case .value(let json) = script.invoke(hook: "_messageReceived", paramsJSON: "{}"),
              let names = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])?["content"]?.split(separator: " ")
        else {
            Issue.record("no list of globals")
            return
        }
        let ecmaScript: Set<Substring> = [
            "AggregateError", "Array", "ArrayBuffer", "Atomics", "BigInt", "BigInt64Array", "BigUint64Array", "Boolean", "DataView",
            "Date", "Error", "EvalError", "FinalizationRegistry", "Float16Array", "Float32Array", "Float64Array", "Function", "Infinity",
            "Int16Array", "Int32Array", "Int8Array", "Intl", "Iterator", "JSON", "Map", "Math", "NaN", "Number", "Object", "Promise",
            "Proxy", "RangeError", "ReferenceError", "Reflect", "RegExp", "Set", "String", "Symbol", "SyntaxError", "TypeError",
            "URIError", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef", "WeakSet",
            "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval", "globalThis", "isFinite", "isNaN",
            "parseFloat", "parseInt", "undefined", "unescape",
        ]
        let documented: Set<Substring> = [
            "AV", "console", "fetch", "require", "module", "exports", "process", "global", "__production", "__switchboard", "Buffer", "URL",
            "URLSearchParams",
        ]
        #expect(Set(names).subtracting(ecmaScript).subtracting(documented).isEmpty, "\(Set(names).subtracting(ecmaScript).subtracting(documented))")
    }

    /// Packages such as get-intrinsic keep a reference to eval at load time and never call it.
    @Test func aModuleThatOnlyMentionsEvalLoadsAndEvalStillFails() throws {
        let script = try load("""
            var $eval = eval;
            AV.Cloud.onIMMessageReceived(() => { try { $eval('1 + 1'); return { content: 'evaluated' }; } catch (e) { return { content: e.name }; } });
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"EvalError"}"#))
    }

    @Test func legacyPromiseHelpersWork() throws {
        let script = try load("""
            AV.Cloud.define('_messageReceived', function (request, response) {
              AV.Promise.when([AV.Promise.as('a'), AV.Promise.as('b')])
                .then((values) => response.success({ content: values.join('') }))
                .fail((error) => response.error(error));
            });
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"ab"}"#))
    }

    @Test func theLibraryListsWhatIsNotRun() async throws {
        let directory = TestServer.temporaryDirectory()
        try """
            var AV = require('leanengine');
            AV.Cloud.define('hello', function (request, response) { response.success('hi'); });
            AV.Cloud.afterSave('Todo', function (request) {});
            AV.Cloud.define('_messageReceived', function (request, response) { response.success({ content: process.env.PREFIX + request.params.content }); });
            """.write(toFile: directory + "/app.js", atomically: true, encoding: .utf8)
        var settings = ScriptLibrary.Settings(directory: directory, workers: 1)
        settings.env = ["PREFIX": "> "]
        let pipeline = HookPipeline(logger: Logger(label: "test"))
        let library = ScriptLibrary(settings: settings, pipeline: pipeline, logger: Logger(label: "test"))
        #expect(await library.loadAll().isEmpty)
        #expect(library.status["app"]?.notRun == ["function hello", "afterSave Todo"])
        #expect(await pipeline.run(MessageReceivedRequest.sample()).request.content == "> hello")
    }
}

/// Project folders: an entry module requiring the project's other files and vendored
/// packages, as Node resolves them.
@Suite struct LeanEngineProjectTests {
    private func project(_ files: [String: String], entry: String = "cloud.js") throws(ScriptError) -> ScriptContext {
        try ScriptContext(.project(files: files, entry: entry), name: "myapp", budget: .milliseconds(200))
    }

    @Test func requiresResolveAsInNode() throws {
        let script = try project([
            "cloud.js": """
                var AV = require('leanengine');
                var mask = require('./cloud/mask');
                var words = require('cloud/words.json');
                var pad = require('left-pad');
                AV.Cloud.define('_messageReceived', function (request, response) {
                  response.success({ content: pad(mask(request.params.content, words.banned), 12) });
                });
                """,
            "cloud/mask.js": """
                var util = require('../lib/util');
                module.exports = function (text, banned) { return banned.reduce((t, word) => util.replaceAll(t, word, '*'), text); };
                """,
            "lib/util.js": "exports.replaceAll = function (text, word, mark) { return text.split(word).join(mark.repeat(word.length)); };",
            "cloud/words.json": #"{ "banned": ["darn"] }"#,
            "node_modules/left-pad/package.json": #"{ "name": "left-pad", "main": "lib/pad" }"#,
            "node_modules/left-pad/lib/pad.js": "module.exports = (text, width) => ' '.repeat(Math.max(0, width - text.length)) + text;",
        ])
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"content":"oh darn"}"#) == .value(#"{"content":"     oh ****"}"#))
    }

    @Test func aCycleSeesWhatIsExportedSoFar() throws {
        let script = try project([
            "cloud.js": "var a = require('./a'); AV.Cloud.onIMMessageReceived(() => ({ content: a.seen }));",
            "a.js": "exports.early = 'yes'; var b = require('./b'); exports.seen = b.sawEarly;",
            "b.js": "var a = require('./a'); exports.sawEarly = String(a.early);",
        ])
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"yes"}"#))
    }

    @Test func aMissingModuleLoadsAndFailsTheCallThatUsesItNamingItAndWhereItWasRequired() throws {
        let script = try project([
            "cloud.js": "var helpers = require('./cloud/helpers');\nAV.Cloud.onIMMessageReceived(() => helpers.upload());",
            "cloud/helpers.js": "\n\nvar qiniu = require('qiniu');\nqiniu.conf.ACCESS_KEY = 'k';\nexports.upload = () => qiniu.io.put('x');",
        ])
        let message = script.failure(of: "_messageReceived")
        #expect(message.contains("module 'qiniu' is not installed"))
        #expect(message.contains("required at myapp/cloud/helpers.js:3"))
    }

    @Test func aSyntaxErrorNamesItsModuleAndLine() {
        do {
            _ = try project(["cloud.js": "require('./broken');", "broken.js": "var ok = 1;\nvar x = ;"])
            Issue.record("a broken module loaded")
        } catch {
            #expect(error.file == "myapp/broken.js")
            #expect(error.line == 2)
        }
    }

    @Test func modulesCannotLeaveTheirProject() throws {
        let script = try project(["cloud.js": "var secret = require('../../etc/passwd');\nAV.Cloud.onIMMessageReceived(() => ({ content: secret.root }));"])
        let message = script.failure(of: "_messageReceived")
        #expect(message.contains("module '../../etc/passwd' is not installed"))
    }
}

/// Project folders dropped into the hooks folder, as an operator does.
@Suite struct LeanEngineProjectFolderTests {
    private let directory = TestServer.temporaryDirectory()

    private func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: directory + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    private func writeProject() throws {
        try write("myapp/package.json", #"{ "name": "myapp", "main": "server.js" }"#)
        try write("myapp/server.js", "var express = require('express'); var app = express(); app.listen(3000);")
        try write("myapp/cloud.js", """
            var AV = require('leanengine');
            var filter = require('./cloud/filter');
            AV.Cloud.define('hello', function (request, response) { response.success('hi'); });
            AV.Cloud.define('_messageReceived', function (request, response) {
              response.success({ content: filter.clean(request.params.content) });
            });
            """)
        try write("myapp/cloud/filter.js", "exports.clean = function (text) { return text.replace('darn', '****'); };")
    }

    @Test func aProjectLoadsFromCloudJsAndReloadsWhenAnyFileChanges() async throws {
        try writeProject()
        let pipeline = HookPipeline(logger: Logger(label: "test"))
        let library = ScriptLibrary(settings: .init(directory: directory, workers: 1), pipeline: pipeline, logger: Logger(label: "test"))
        #expect(await library.loadAll().isEmpty)
        #expect(library.status["myapp"]?.notRun == ["function hello"])
        #expect(await pipeline.run(MessageReceivedRequest.sample("oh darn")).request.content == "oh ****")

        let watching = Task { try await library.watch() }
        defer { watching.cancel() }
        try await Task.sleep(for: .milliseconds(100))
        try write("myapp/cloud/filter.js", "exports.clean = function (text) { return text.toUpperCase(); };")
        #expect(try await eventually { await pipeline.run(MessageReceivedRequest.sample("quiet")).request.content == "QUIET" })

        // A broken edit keeps the version that serves.
        try write("myapp/cloud/filter.js", "exports.clean = function (text) { return ; ;; }}")
        #expect(try await eventually { library.status["myapp"]?.error != nil })
        #expect(await pipeline.run(MessageReceivedRequest.sample("still")).request.content == "STILL")

        try FileManager.default.removeItem(atPath: directory + "/myapp")
        #expect(try await eventually { !pipeline.hasHandlers(for: .messageReceived) })
    }

    @Test func hooksTestRunsAProjectFolder() async throws {
        try writeProject()
        let report = try await ScriptTrial.run(
            path: directory + "/myapp", hook: "_messageReceived", paramsJSON: #"{"content":"darn"}"#, budget: .milliseconds(200)
        )
        #expect(report.outcome == .value(#"{"content":"****"}"#))
    }

    @Test func aFolderWithoutAnEntryIsALoadError() async throws {
        try write("notes/readme.json", "{}")
        let pipeline = HookPipeline(logger: Logger(label: "test"))
        let library = ScriptLibrary(settings: .init(directory: directory, workers: 1), pipeline: pipeline, logger: Logger(label: "test"))
        let errors = await library.loadAll()
        #expect(errors.first?.message.contains("no entry module") == true)
    }

    private func eventually(_ condition: () async -> Bool) async throws -> Bool {
        for _ in 0..<100 {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

/// `_Conversation` read from hooks, as LeanEngine code does it, answered from the server's store.
@Suite struct ConversationQueriesInHooksTests {
    @Test func hooksQueryAndFetchConversations() async throws {
        let push = RecordingPushGateway()
        // Each query waits within the call's budget: one that a loaded test machine does not run out of.
        let server = try await TestServer.start(push: push, scripts: ["rooms.js": """
            var AV = require('leanengine');
            AV.Cloud.define('_messageReceived', function (request, response) {
              var query = new AV.Query('_Conversation');
              query.equalTo('objectId', request.params.convId);
              query.find().then(function (results) {
                var conversation = results[0];
                var tag = [conversation.get('name'), conversation.get('level'), conversation.get('m').length, conversation.get('c')].join('/');
                return AV.Object.createWithoutData('_Conversation', request.params.convId).fetch().then(function (fetched) {
                  response.success({ content: tag + ' ' + fetched.get('name') + ': ' + request.params.content });
                });
              }).catch(function (error) { response.error(error); });
            });
            AV.Cloud.define('_receiversOffline', async function (request) {
              const mine = await new AV.Query('_Conversation').containsAll('m', [request.params.fromPeer]).descending('createdAt').find();
              const count = (query) => query.count();
              const named = await count(new AV.Query('_Conversation').startsWith('name', 'lu')) + await count(new AV.Query('_Conversation').endsWith('name', 'nch'))
                + await count(new AV.Query('_Conversation').contains('name', 'x'));
              const unnamed = await new AV.Query('_Conversation').matches('name', /^LUNCH.$/i).count();
              const users = await new AV.Query('_User').find().then(() => 'read', (error) => error.message);
              return { pushMessage: JSON.stringify({ alert: mine.length + ' ' + named + ' ' + unnamed + ' ' + users }) };
            });
            """]) { $0.hooks.defaultBudget = .seconds(20) }
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let reply = try await alice.request(.startConversation(members: ["bob", "carol"], name: "lunch", attributes: ["level": "3"]))
        let cid = reply.convMessage.cid
        _ = try await alice.request(.text("hi", cid: cid))
        #expect(try await bob.nextMessage().msg == "lunch/3/3/alice lunch: hi")
        // Carol is offline: the push payload came from a query too, and _User is an ordinary class.
        let notice = try await push.next()
        #expect(notice.payload["alert"]?.stringValue == "1 2 0 read")
        try await server.stop()
    }

    /// Waiting for answers costs the host no CPU, so only a count stops a call that queries
    /// in a loop before the wall-clock backstop (seconds) would.
    @Test func aCallCannotQueryWithoutEnd() async throws {
        let directory = TestServer.temporaryDirectory()
        try "AV.Cloud.onIMMessageReceived(async () => { for (;;) await new AV.Query('_Conversation').find(); });"
            .write(toFile: directory + "/loop.js", atomically: true, encoding: .utf8)
        let store = CountingConversations()
        let data = LocalAppData(store: try SQLiteStore(path: directory + "/data.sqlite"), imClasses: IMClasses([store]))
        // A budget no loaded machine runs out of in 16 rounds, so the count is what stops it.
        let pipeline = HookPipeline(settings: HookSettings(defaultBudget: .seconds(30)), metrics: .inOwnRegistry(), logger: Logger(label: "test"))
        let library = ScriptLibrary(settings: .init(directory: directory, workers: 1), pipeline: pipeline, logger: Logger(label: "test"), services: ScriptServices(data: data))
        #expect(await library.loadAll().isEmpty)
        _ = await pipeline.run(MessageReceivedRequest.sample())
        #expect(store.queries == 16)
        let metrics = pipeline.metrics.exposition
        #expect(metrics.contains(#"switchboard_hook_failures_total{handler="loop",kind="script",point="_messageReceived"} 1"#))
    }

    @Test func whatTheStoreCannotAnswerFailsWithAClearError() async throws {
        let directory = TestServer.temporaryDirectory()
        let data = LocalAppData(store: try SQLiteStore(path: directory + "/data.sqlite"))
        let source = """
            AV.Cloud.onIMMessageReceived(async () => {
              const near = await new AV.Query('Todo').near('location', new AV.GeoPoint(39.9, 116.4)).find().catch((e) => e.code + ' ' + e.message);
              const conversations = await new AV.Query('_Conversation').find().catch((e) => e.code + ' ' + e.message);
              return { content: near + '|' + conversations };
            });
            """
        let report = try await ScriptTrial.run(
            source: source, file: "q.js", hook: "_messageReceived", paramsJSON: "{}", budget: .seconds(10), services: ScriptServices(data: data)
        )
        #expect(report.outcome == .value(#"{"content":"102 Invalid query: unsupported operator $nearSphere|1 _Conversation is not available here: no IM store"}"#))
        // The first is the store's answer to a bad query; the second this server's refusal.
        #expect(report.console.map(\.level) == ["refused"])

        let without = try await ScriptTrial.run(source: source, file: "q.js", hook: "_messageReceived", paramsJSON: "{}", budget: .seconds(10))
        let missing = "is not available here: there is no app data store (LeanStorage classes) for hook scripts"
        #expect(without.outcome == .value(#"{"content":"undefined Todo \#(missing)|undefined _Conversation \#(missing)"}"#))
    }
}

/// Answers every `_Conversation` query with nothing, counting them.
private final class CountingConversations: IMClass {
    private let count = Mutex(0)
    var queries: Int { count.withLock { $0 } }
    let name = "_Conversation"

    func objects(where: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        count.withLock { $0 += 1 }
        return []
    }

    func page(after objectID: String?, limit: Int) async throws -> IMClassPage {
        IMClassPage(objects: [], next: nil)
    }
}

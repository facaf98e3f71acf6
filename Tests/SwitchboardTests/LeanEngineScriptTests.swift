import Foundation
import Logging
import SwitchboardHooks
import Testing

@testable import SwitchboardJS

/// LeanEngine cloud code as real projects write it: `require('leanengine')`, callback-style
/// handlers, ordinary cloud functions and storage classes beside the IM hooks.
@Suite struct LeanEngineScriptTests {
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
        guard case .failed(let message) = script.invoke(hook: "_messageReceived", paramsJSON: #"{"content":"bad"}"#) else {
            Issue.record("response.error did not fail the call")
            return
        }
        #expect(message.contains("not allowed"))
        #expect(script.invoke(hook: "_receiversOffline", paramsJSON: #"{"content":"hello world"}"#)
            == .value(#"{"pushMessage":"{\"badge\":\"Increment\",\"sound\":\"default\",\"_profile\":\"dev\",\"alert\":\"hello \"}"}"#))
        #expect(script.invoke(hook: "_messageSent", paramsJSON: "{}") == .failed("the hook returned a Promise that never settled"))
    }

    @Test func everyNameOfTheSDKIsTheSameObject() throws {
        let script = try load("""
            var AV = require('leanengine');
            const same = [require('leancloud-storage'), require('avoscloud-sdk'), globalThis.AV].every((other) => other === AV);
            AV.Cloud.onIMMessageReceived(() => ({ content: String(same) }));
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"true"}"#))
    }

    @Test func aModuleThatCannotBeProvidedFailsTheLoadNamingItAndTheLine() {
        do {
            _ = try load("var AV = require('leanengine');\nvar fs = require('fs');\n")
            Issue.record("require('fs') loaded")
        } catch {
            #expect(error.message.contains("module 'fs' cannot be loaded"))
            #expect(error.message.contains("cloud.js:2"))
        }
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
        guard case .failed(let message) = script.invoke(hook: "_receiversOffline", paramsJSON: #"{"content":"x"}"#) else {
            Issue.record("saving an object worked")
            return
        }
        #expect(message.contains("Saving OfflineMessage is not available in hook scripts"))
        #expect(message.contains("remote hook"))
    }

    @Test func processEnvHoldsTheConfiguredValuesOnly() throws {
        let script = try load("""
            AV.Cloud.onIMMessageReceived(() => ({ content: [process.env.SITE, typeof process.env.PATH, String(__production)].join(',') }));
            """, env: ["SITE": "demo"])
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"demo,undefined,true"}"#))
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

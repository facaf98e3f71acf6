import Foundation
import Testing

@testable import SwitchboardJS

/// The callback-era API of LeanEngine projects from 2015–2017: `new AV.Promise()` as a
/// deferred, Backbone-style `{success, error}` options, node-style callbacks, and nothing a
/// script catches left out of the log.
@Suite struct LeanEngineOldAPITests {
    private func load(_ source: String) throws(ScriptError) -> ScriptContext {
        try ScriptContext(source: source, file: "cloud.js", budget: .milliseconds(200))
    }

    /// One `_Conversation` the server found, as it answers a query.
    private let found = #"[{"id":1,"result":{"results":[{"objectId":"c1","name":"team","m":["a","b"],"createdAt":"2016-01-01T00:00:00.000Z","updatedAt":"2016-01-02T00:00:00.000Z"}]}}]"#

    /// Runs a call that asks one storage call, answering it with `answers`.
    private func call(_ script: ScriptContext, answering answers: String) -> ScriptContext.Outcome {
        guard case .asking(let questions) = script.invoke(hook: "_messageReceived", paramsJSON: #"{"content":"hi"}"#) else {
            Issue.record("the call asked nothing")
            return .failed("asked nothing")
        }
        #expect(questions.contains(#""kind":"storage""#))
        return script.resume(answersJSON: answers)
    }

    @Test func aDeferredMadeWithoutAnExecutorIsSettledByItsMaker() throws {
        let script = try load("""
            var AV = require('leanengine');
            function payload(text) {
              var promise = new AV.Promise();
              AV.Promise.as(text).then(function (value) {
                if (value === 'fail') promise.reject(new Error('no payload'));
                else promise.resolve({ alert: value, badge: 'Increment' });
              });
              return promise;
            }
            AV.Cloud.define('_receiversOffline', function (request, response) {
              payload(request.params.content).then(function (push) {
                response.success({ pushMessage: JSON.stringify(push) });
              }, function (error) { response.error(error.message); });
            });
            """)
        #expect(script.invoke(hook: "_receiversOffline", paramsJSON: #"{"content":"hello"}"#)
            == .value(#"{"pushMessage":"{\"alert\":\"hello\",\"badge\":\"Increment\"}"}"#))
        let message = script.failure(of: "_receiversOffline", paramsJSON: #"{"content":"fail"}"#)
        #expect(message.contains("no payload"))
    }

    @Test func whenSpreadsItsResultsToACallbackOfSeveralParameters() throws {
        let script = try load("""
            AV.Cloud.define('_messageReceived', function (request, response) {
              AV.Promise.when(AV.Promise.as('a'), AV.Promise.as('b')).then(function (first, second) {
                return AV.Promise.when([AV.Promise.as(first), AV.Promise.as(second)]);
              }).then(function (both) {
                response.success({ content: both.join('+') });
              });
            });
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"a+b"}"#))
    }

    @Test func backboneOptionsOnAConversationQueryAnswer() throws {
        let script = try load("""
            AV.Cloud.define('_messageReceived', function (request, response) {
              var query = new AV.Query('_Conversation');
              query.equalTo('name', 'team');
              query.find({
                success: function (conversations) { response.success({ content: conversations[0].get('m').join(',') }); },
                error: function (error) { response.error(error.message); }
              });
            });
            """)
        #expect(call(script, answering: found) == .value(#"{"content":"a,b"}"#))
    }

    @Test func aNodeStyleCallbackGetsTheResultOrTheError() throws {
        let script = try load("""
            AV.Cloud.define('_messageReceived', function (request, response) {
              new AV.Query('_Conversation').count(function (count, error) {
                response.success({ content: error ? 'error ' + error.message : 'count ' + count });
              });
            });
            """)
        #expect(call(script, answering: #"[{"id":1,"result":{"results":[],"count":1}}]"#) == .value(#"{"content":"count 1"}"#))
        #expect(call(script, answering: #"[{"id":2,"error":"the store is down"}]"#) == .value(#"{"content":"error the store is down"}"#))
    }

    @Test func getPassesNullAndObjectCallsPassTheObjectFirstToTheirErrorCallback() throws {
        let script = try load("""
            AV.Cloud.define('_messageReceived', function (request, response) {
              new AV.Query('_Conversation').get('missing', {
                error: function (object, error) {
                  var note = new AV.Object('Note');
                  note.save({ text: 'x' }, {
                    error: function (saved, saveError) {
                      response.success({ content: [object, error.code, saved === note, saveError.code, saveError.message].join(' ') });
                    }
                  });
                }
              });
            });
            """)
        guard case .asking(let save) = call(script, answering: #"[{"id":1,"result":null}]"#) else {
            Issue.record("the save asked nothing")
            return
        }
        #expect(save.contains(#""action":"create""#) && save.contains(#""body":{"text":"x"}"#))
        #expect(script.resume(answersJSON: #"[{"id":2,"error":"Invalid key name.","code":105}]"#) == .value(#"{"content":" 101 true 105 Invalid key name."}"#))
    }

    @Test func aRefusedQueryTheScriptCatchesIsStillLoggedWithItsLine() throws {
        let script = try load("""
            var AV = require('leanengine');
            AV.Cloud.define('_messageReceived', function (request, response) {
              var blocked = new AV.Query('Blacklist');
              blocked.equalTo('blocker', request.params.toPeers[0]);
              blocked.first({
                success: function (found) { response.success(found ? { drop: true } : {}); },
                error: function () { response.success({}); }
              });
            });
            """)
        guard case .asking = script.invoke(hook: "_messageReceived", paramsJSON: #"{"toPeers":["bob"]}"#) else {
            Issue.record("the query asked nothing")
            return
        }
        #expect(script.resume(answersJSON: #"[{"id":1,"error":"Blacklist is not available here: there is no app data store"}]"#) == .value("{}"))
        let logs = script.drainLogs()
        #expect(logs.contains { $0.0 == "refused" && $0.1.hasPrefix("cloud.js:5: Blacklist is not available here") }, "\(logs)")
    }

    /// `hooks test` showed no console at all for a hook that never answered: what it logged is
    /// most of what tells why.
    @Test func whatAHookThatNeverAnswersLoggedIsKept() async throws {
        let report = try await ScriptTrial.run(source: """
            AV.Cloud.define('_messageReceived', function (request, response) {
              console.log('saving');
              new AV.Object('Comments').save(null, { error: function () { return null; } });
            });
            """, file: "comments.js", hook: "_messageReceived", paramsJSON: "{}", budget: .milliseconds(500))
        #expect(report.outcome == .failed("the hook never answered: its Promise never settled, or it never called response.success or response.error"))
        #expect(report.console.map(\.level) == ["info", "refused"])
        #expect(report.console.last?.text.hasPrefix("comments.js:3: Comments is not available here: there is no app data store") == true)
    }

    @Test func whatACallbackThrowsIsLogged() throws {
        let script = try load("""
            AV.Cloud.define('_messageReceived', function (request, response) {
              new AV.Query('_Conversation').find({ success: function (list) { list.missing.push(1); } });
            });
            """)
        #expect(call(script, answering: found) != .value("{}"))
        #expect(script.drainLogs().contains { $0.0 == "error" && $0.1.contains("a callback threw: ") && $0.1.contains("undefined") })
    }

    @Test func consolePrintsAnErrorsMessageAndStackAndDir() throws {
        let script = try load("""
            AV.Cloud.onIMMessageReceived(function () {
              console.log(new Error('boom'));
              console.dir({ a: 1 });
              return { content: String(global === globalThis) };
            });
            """)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"true"}"#))
        let logs = script.drainLogs()
        #expect(logs.count == 2)
        #expect(logs.first?.1.hasPrefix("boom\n") == true)
        #expect(logs.first?.1.contains("cloud.js:2") == true)
        #expect(logs.last?.1 == #"{"a":1}"#)
    }
}

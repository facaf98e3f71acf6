import Foundation
import FoundationNetworking
import SwitchboardJS
import Testing

/// A LeanChat-style LeanEngine project of 2015, dropped in unchanged: `cloud/main.js`
/// requires an Express app and a Qiniu helper whose package nobody has, and the IM hooks in
/// `cloud/mchat.js` build a push payload through `new AV.Promise()` and read conversations
/// with Backbone-style callbacks.
@Suite struct LeanChatProjectTests {
    static let project: [String: String] = [
        "leanchat/package.json": #"{ "name": "leanchat-cloudcode", "dependencies": { "qiniu": "6.1.3", "underscore": "1.8.3", "express": "3.4.x" } }"#,
        "leanchat/cloud/main.js": """
            require('cloud/app.js');
            var mchat = require('cloud/mchat.js');
            var mqiniu = require('cloud/mqiniu.js');
            AV.Cloud.define('qiniuToken', mqiniu.qiniuToken);
            AV.Cloud.define('_messageReceived', mchat.messageReceived);
            AV.Cloud.define('_receiversOffline', mchat.receiversOffline);
            AV.Cloud.define('_conversationStart', mchat.conversationStart);
            """,
        "leanchat/cloud/app.js": """
            var express = require('express');
            var app = express();
            app.set('views', 'cloud/views');
            app.set('view engine', 'ejs');
            app.use(express.bodyParser());
            app.get('/hello', function (req, res) { res.render('hello', { message: 'Congrats, you just set up your app!' }); });
            app.listen();
            """,
        "leanchat/cloud/mqiniu.js": """
            var qiniu = require('qiniu');
            qiniu.conf.ACCESS_KEY = 'access';
            qiniu.conf.SECRET_KEY = 'secret';
            function qiniuToken(req, res) {
              var putPolicy = new qiniu.rs.PutPolicy('leanchat');
              res.success({ token: putPolicy.token() });
            }
            exports.qiniuToken = qiniuToken;
            exports.uptoken = function () { return new qiniu.rs.PutPolicy('leanchat').token(); };
            """,
        "leanchat/cloud/mchat.js": """
            var _ = require('underscore');
            var mqiniu = require('cloud/mqiniu.js');

            function getPushMessage(params) {
              var promise = new AV.Promise();
              var content = JSON.parse(params.content);
              var conversation = AV.Object.createWithoutData('_Conversation', params.convId);
              conversation.fetch({
                success: function (conv) {
                  var text = content._lctype == -1 ? content._lctext : '[media]';
                  promise.resolve(JSON.stringify({
                    badge: 'Increment', sound: 'default', convid: params.convId,
                    alert: conv.get('name') + ' · ' + params.fromPeer + ': ' + text
                  }));
                },
                error: function (object, error) { promise.reject(error); }
              });
              return promise;
            }

            function receiversOffline(req, res) {
              getPushMessage(req.params).then(function (pushMessage) {
                res.success({ pushMessage: pushMessage });
              }, function (error) {
                console.log(error);
                res.success();
              });
            }

            function messageReceived(req, res) {
              var query = new AV.Query('_Conversation');
              query.equalTo('objectId', req.params.convId);
              query.find({
                success: function (results) {
                  var muted = results[0].get('mu') || [];
                  res.success({ toPeers: _.difference(req.params.toPeers, muted) });
                },
                error: function (error) { res.error(error.message); }
              });
            }

            function conversationStart(req, res) {
              res.success({ token: mqiniu.uptoken() });
            }

            exports.getPushMessage = getPushMessage;
            exports.receiversOffline = receiversOffline;
            exports.messageReceived = messageReceived;
            exports.conversationStart = conversationStart;
            """,
    ]

    @Test func itLoadsAndHooksCheckSaysWhatItCannotHave() async throws {
        let hooks = TestServer.temporaryDirectory()
        for (path, source) in Self.project {
            let url = URL(fileURLWithPath: hooks + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.write(to: url, atomically: true, encoding: .utf8)
        }
        let check = try await ScriptTrial.check(entry: "leanchat", in: hooks, budget: .seconds(2), modulePaths: ["/usr/share/nodejs"])
        #expect(Set(check.hooks) == ["_messageReceived", "_receiversOffline", "_conversationStart"])
        #expect(check.notRun == ["web routes (express, required at leanchat/cloud/app.js:1)", "function qiniuToken"])
        #expect(check.missing.map { "\($0.module) \($0.file):\($0.line)" } == ["qiniu leanchat/cloud/mqiniu.js:1"])
    }

    @Test func itsHooksAnswerAsOnLeanCloud() async throws {
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push, scripts: Self.project) { config in
            config.scriptModulePaths = ["/usr/share/nodejs"]
        }
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let reply = try await alice.request(.startConversation(members: ["bob", "carol"], name: "team"))
        let cid = reply.convMessage.cid
        _ = try await alice.request(.text(#"{"_lctype":-1,"_lctext":"hi"}"#, cid: cid))
        #expect(try await bob.nextMessage().msg == #"{"_lctype":-1,"_lctext":"hi"}"#)
        // Carol is offline: the payload came through the deferred and the fetch's callbacks.
        let notice = try await push.next()
        #expect(notice.payload["alert"]?.stringValue == "team · alice: hi")
        #expect(notice.payload["convid"]?.stringValue == cid)
        // _conversationStart uses Qiniu: its call failed (the policy is open: the conversation
        // started), and the refusal was counted.
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/metrics")!)
        let metrics = String(decoding: data, as: UTF8.self)
        #expect(metrics.contains(#"switchboard_script_refused_calls_total{script="leanchat"} 1"#))
        #expect(metrics.contains(#"switchboard_hook_failures_total{handler="leanchat",kind="script",point="_conversationStart"} 1"#))
        try await server.stop()
    }
}

import Foundation
import Synchronization
import SwitchboardWire
import Testing

/// JavaScript hooks seen by real clients over WebSocket.
@Suite struct ScriptWiringTests {
    @Test func aScriptDropsAndRewritesMessages() async throws {
        let server = try await TestServer.start(scripts: ["moderate.js": """
            // Ported from a LeanEngine cloud function, unchanged.
            AV.Cloud.onIMMessageReceived((request) => {
              const text = request.params.content;
              if (text.includes('forbidden')) return { drop: true, code: 42, detail: 'not here' };
              return { content: text.replace('darn', '****') };
            });
            """])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let refused = try await alice.request(.text("a forbidden word", cid: cid))
        #expect(refused.ackMessage.code == 4402)
        #expect(refused.ackMessage.appCode == 42)
        try await alice.sendText("oh darn", cid: cid)
        #expect(try await bob.nextMessage().msg == "oh ****")
        let patch = try await alice.next { $0.cmd == .patch }
        #expect(patch.patchMessage.patches.first?.patchCode == 1)
        #expect(patch.patchMessage.patches.first?.patchReason == "modified by hook")
        try await server.stop()
    }

    @Test func aLeanEngineProjectFolderServesLiveTraffic() async throws {
        let server = try await TestServer.start(scripts: [
            "myapp/cloud.js": """
                var AV = require('leanengine');
                var filter = require('./cloud/filter');
                AV.Cloud.define('_messageReceived', function (request, response) {
                  var typed = JSON.parse(request.params.content);
                  typed._lctext = filter.clean(typed._lctext);
                  response.success({ content: JSON.stringify(typed) });
                });
                AV.Cloud.define('_receiversOffline', function (request, response) {
                  response.success({ pushMessage: JSON.stringify({ alert: 'new message', badge: 'Increment' }) });
                });
                """,
            "myapp/cloud/filter.js": "exports.clean = function (text) { return text.replace('darn', '****'); };",
        ])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.request(.typedText("oh darn", cid: cid))
        #expect(try await bob.nextMessage().msg == #"{"_lctext":"oh ****","_lctype":-1}"#)
        try await server.stop()
    }

    @Test func writingAScriptChangesTheNextMessage() async throws {
        let server = try await TestServer.start(scripts: ["mark.js": "AV.Cloud.onIMMessageReceived((r) => ({ content: 'v1:' + r.params.content }));"])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        try await alice.sendText("a", cid: cid)
        #expect(try await bob.nextMessage().msg == "v1:a")
        try server.writeScript("mark.js", "AV.Cloud.onIMMessageReceived((r) => ({ content: 'v2:' + r.params.content }));")
        var seen = ""
        for attempt in 0..<200 where !seen.hasPrefix("v2:") {
            try await alice.sendText("b\(attempt)", cid: cid)
            seen = try await bob.nextMessage().msg
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(seen.hasPrefix("v2:"))
        try await server.stop()
    }

    @Test func noMessageFailsWhileScriptsReloadUnderTraffic() async throws {
        let server = try await TestServer.start(scripts: ["busy.js": "AV.Cloud.onIMMessageReceived((r) => ({ content: r.params.content + '#0' }));"])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let rewriting = Task {
            for version in 1...30 {
                // Every third version is broken: it must not take the old one down.
                let source = version % 3 == 0
                    ? "AV.Cloud.onIMMessageReceived((r) => ({ content: r.params.content + '#\(version)' })"
                    : "AV.Cloud.onIMMessageReceived((r) => ({ content: r.params.content + '#\(version)' }));"
                try server.writeScript("busy.js", source)
                try await Task.sleep(for: .milliseconds(30))
            }
        }
        var failures = 0
        let count = 150
        for index in 0..<count {
            let reply = try await alice.request(.text("m\(index)", cid: cid))
            if reply.ackMessage.hasCode { failures += 1 }
        }
        try await rewriting.value
        var delivered = 0
        while let message = try? await bob.nextMessage(timeout: .milliseconds(500)) {
            #expect(message.msg.contains("#"))
            delivered += 1
        }
        #expect(failures == 0)
        #expect(delivered == count)
        try await server.stop()
    }
}

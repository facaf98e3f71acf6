import Foundation
import SwitchboardWire
import Testing

/// `conv/update` as a hostile member would use it: server fields, deep keys, huge values. On
/// the core alone.
@Suite struct AttributeUpdateTests {
    @Test func serverFieldsCannotBeWritten() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        for key in ["tr", "sys", "temp", "c", "m", "mu", "msg_from", "msg", "lm", "createdAt", "tr.x", "objectId"] {
            let reply = try await alice.request(.update(cid: cid, attributes: #"{"\#(key)":true}"#))
            #expect(reply.errorMessage.code == 4306, "\(key) was accepted")
        }
        let found = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["tr"] == nil && found["sys"] == nil && found["msg_from"] == nil)
        #expect(found["c"] as? String == "alice")
        await server.stop()
    }

    @Test func dottedKeysChangeOneNestedValueAndKeepTheRest() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.request(.update(cid: cid, attributes: #"{"theme":{"color":"red","font":"serif"},"level":1}"#))
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"theme.color":"blue"}"#)).op == .updated)
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"level":{"__op":"Delete"}}"#)).op == .updated)
        let found = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["theme"] as? [String: String] == ["color": "blue", "font": "serif"])
        #expect(found["level"] == nil)
        await server.stop()
    }

    /// The SDK's `conversation.set('attr.lee', 'yeh')`: `attr` is an attribute like any
    /// other, and the dotted key sets one key inside it.
    @Test func attrDottedKeysSetKeysInsideAttr() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"attr":{"lean":"cloud"}}"#)).op == .updated)
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"attr.lee":"yeh","attr.tr":1}"#)).op == .updated)
        let found = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["attr"] as? NSDictionary == ["lean": "cloud", "lee": "yeh", "tr": 1] as NSDictionary)
        #expect(found["lee"] == nil && found["tr"] == nil)
        await server.stop()
    }

    @Test func deepKeysAreRefusedQuicklyAndTheOtherAttributesStay() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.request(.update(cid: cid, attributes: #"{"keep":"me"}"#))
        let deepKey = Array(repeating: "a", count: 8000).joined(separator: ".")
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"\#(deepKey)":1}"#)).errorMessage.code == 4306)
        let deepValue = String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40)
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"nested":\#(deepValue)}"#)).errorMessage.code == 4306)
        let longKey = String(repeating: "k", count: 300)
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"\#(longKey)":1}"#)).errorMessage.code == 4306)
        // Eight levels is fine.
        #expect(try await alice.request(.update(cid: cid, attributes: #"{"a.b.c.d.e.f.g.h":1}"#)).op == .updated)
        let found = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["keep"] as? String == "me")
        #expect(found["a"] != nil)
        await server.stop()
    }

    @Test func attributesStopGrowingAtTheirLimit() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let chunk = String(repeating: "x", count: 20_000)
        var codes: [Int32] = []
        for index in 0..<5 {
            let reply = try await alice.request(.update(cid: cid, attributes: #"{"part\#(index)":"\#(chunk)"}"#))
            codes.append(reply.cmd == .error ? reply.errorMessage.code : 0)
        }
        #expect(codes == [0, 0, 0, 4306, 4306])
        await server.stop()
    }
}

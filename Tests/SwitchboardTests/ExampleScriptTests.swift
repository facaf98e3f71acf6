import Foundation
import SwitchboardHooks
import SwitchboardJS
import SwitchboardJSON
import Testing

/// The shipped examples load, and answer their sample payloads as their comments promise.
@Suite(.storeBlind) struct ExampleScriptTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    private func run(_ script: String, _ point: HookPoint, params: JSONValue? = nil) async throws -> JSONValue {
        let source = try String(contentsOf: Self.root.appendingPathComponent("examples/hooks/\(script)"), encoding: .utf8)
        let payload = try params?.jsonString ?? String(contentsOf: Self.root.appendingPathComponent("examples/payloads/\(point.rawValue).json"), encoding: .utf8)
        let report = try await ScriptTrial.run(source: source, file: script, hook: point.rawValue, paramsJSON: payload, budget: .milliseconds(200))
        guard case .value(let json) = report.outcome else { throw ScriptError(file: script, line: nil, message: "\(report.outcome)") }
        let result = try JSONValue(parsing: json)
        try point.checkResult(result)
        return result
    }

    private func samplePayload(_ point: HookPoint) throws -> JSONValue {
        try JSONValue(parsing: String(contentsOf: Self.root.appendingPathComponent("examples/payloads/\(point.rawValue).json"), encoding: .utf8))
    }

    @Test func everyHookPointHasASamplePayloadWithItsDocumentedParameters() throws {
        for point in HookPoint.allCases {
            #expect(try samplePayload(point).objectValue != nil, "\(point.rawValue)")
        }
        let received = try samplePayload(.messageReceived)
        #expect(Set(received.objectValue?.keys.map { $0 } ?? []) == [
            "fromPeer", "convId", "toPeers", "transient", "bin", "content", "receipt", "timestamp", "system", "sourceIP",
        ])
    }

    @Test func keywordFilterMasksTypedText() async throws {
        let result = try await run("keyword-filter.js", .messageReceived)
        #expect(result["content"] == #"{"_lctype":-1,"_lctext":"well *** it"}"#)
        #expect(result["code"] == 1)
        var clean = try samplePayload(.messageReceived).objectValue ?? [:]
        clean["content"] = "nothing to see"
        #expect(try await run("keyword-filter.js", .messageReceived, params: .object(clean)) == .object([:]))
    }

    @Test func pushPayloadBuilderAlertsMentionedMembers() async throws {
        let result = try await run("push-payload.js", .receiversOffline)
        #expect(result["pushMessage"]?["alert"] == "@ alice: are we still on for lunch?")
    }

    @Test func messageTypesRefuseMalformedOrders() async throws {
        var params = try samplePayload(.messageReceived).objectValue ?? [:]
        params["content"] = #"{"_lctype":1,"_lcattrs":{"orderId":"A1"}}"#
        #expect(try await run("message-types.js", .messageReceived, params: .object(params))["code"] == 1002)
        params["content"] = #"{"_lctype":1,"_lcattrs":{"orderId":"A1","amount":3}}"#
        #expect(try await run("message-types.js", .messageReceived, params: .object(params)) == .object([:]))
        params["content"] = #"{"_lctype":7}"#
        #expect(try await run("message-types.js", .messageReceived, params: .object(params))["code"] == 1001)
    }

    @Test func recipientFilterNarrowsBlockedSenders() async throws {
        var params = try samplePayload(.messageReceived).objectValue ?? [:]
        params["fromPeer"] = "spammer"
        params["toPeers"] = ["alice", "carol"]
        #expect(try await run("recipient-filter.js", .messageReceived, params: .object(params))["toPeers"] == ["carol"])
    }
}

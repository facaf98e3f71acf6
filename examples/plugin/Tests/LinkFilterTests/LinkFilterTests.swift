import Logging
import SwitchboardHooks
import Testing

@testable import LinkFilter

@Suite struct LinkFilterTests {
    private func message(_ content: String, from sender: String = "alice") -> MessageReceivedRequest {
        MessageReceivedRequest(
            fromPeer: sender, convId: "c1", toPeers: ["bob"], transient: false, bin: false, content: content,
            receipt: false, timestamp: 1, system: false, sourceIP: "127.0.0.1"
        )
    }

    @Test func dropsLinksInPlainAndTypedText() async throws {
        let filter = LinkFilter()
        let plain = try await filter.messageReceived(message("see https://example.com"))
        #expect(plain.drop && plain.code == LinkFilter.refusedCode)
        let typed = try await filter.messageReceived(message(#"{"_lctype":-1,"_lctext":"go to WWW.example.com"}"#))
        #expect(typed.drop)
    }

    @Test func passesOrdinaryTextAndTrustedSenders() async throws {
        let filter = LinkFilter(trusted: ["moderator"])
        #expect(try await filter.messageReceived(message("hello")) == .passThrough)
        #expect(try await filter.messageReceived(message("https://rules.example", from: "moderator")) == .passThrough)
    }

    @Test func stopsTheChainInAPipeline() async {
        let pipeline = HookPipeline(logger: Logger(label: "test"))
        pipeline.register(PluginHandler(LinkFilter()))
        let outcome = await pipeline.run(message("http://spam.example"))
        #expect(outcome.stop?.handler == "link-filter")
        #expect(outcome.stop?.code == 1001)
    }
}

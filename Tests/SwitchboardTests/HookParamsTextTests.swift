import SwitchboardHooks
import SwitchboardJSON
import Testing

/// `_messageReceived` writes its params for scripts straight from its fields; the text must
/// be what the `JSONValue` dictionary gives, keys in the same order, strings escaped alike.
@Suite(.storeBlind) struct HookParamsTextTests {
    @Test(arguments: [
        "hello",
        #"{"_lctype":-1,"_lctext":"say \"hi\"\n\tto C:\\ and ünïcödé 😀"}"#,
        "control \u{01}\u{1F} and slash / and nothing",
        "",
    ])
    func messageReceivedParamsAreTheDictionarysText(content: String) {
        let request = MessageReceivedRequest(
            fromPeer: "al\"ice", convId: "5f0c1b2a3d4e5f6a7b8c9d0e", toPeers: ["bob", "c\\arol", ""], transient: true, bin: false,
            content: content, receipt: true, timestamp: -1_763_800_000_000, system: false, sourceIP: "::1"
        )
        #expect(request.paramsJSON == request.params.jsonString)
        #expect(MessageReceivedRequest.sample(content).paramsJSON == MessageReceivedRequest.sample(content).params.jsonString)
    }
}

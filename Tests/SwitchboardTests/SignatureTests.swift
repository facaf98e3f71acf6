import SwitchboardCore
import Testing

/// Expected digests computed independently with Python's hmac module.
@Suite(.storeBlind) struct SignatureTests {
    let signature = Signature(appID: "app1", masterKey: "master")

    @Test func loginSignsAppClientEmptyTimestampNonce() {
        #expect(signature.login(clientID: "alice", timestamp: 1_700_000_000, nonce: "nonce1") == "a23e461aaa9e5172e9e22857bc13bd1b600e5451")
    }

    @Test func conversationStartSortsMembers() {
        let digest = signature.startConversation(clientID: "alice", members: ["carol", "bob"], timestamp: 1_700_000_000, nonce: "nonce1")
        #expect(digest == "d1227b8b4847096f87e8c859ae6b6b6428a387bd")
    }

    @Test func memberChangeAppendsAction() {
        let digest = signature.changeMembers(
            clientID: "alice", conversationID: "conv1", members: ["carol", "bob"], timestamp: 1_700_000_000, nonce: "nonce1", action: .invite
        )
        #expect(digest == "842143a87cfeb2676ae5e746ddfb5e8fa475e03d")
    }

    @Test func matchingIgnoresCaseAndRejectsOthers() {
        #expect(Signature.matches("abc123", "ABC123"))
        #expect(!Signature.matches("abc123", "abc124"))
        #expect(!Signature.matches("abc123", "abc12"))
    }
}

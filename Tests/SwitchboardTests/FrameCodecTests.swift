import Foundation
import SwitchboardWire
import Testing

@Suite(.storeBlind) struct FrameCodecTests {
    private var sample: GenericCommand {
        var command = GenericCommand()
        command.cmd = .direct
        command.i = 7
        command.directMessage.cid = "c1"
        command.directMessage.msg = "héllo"
        return command
    }

    @Test(arguments: Subprotocol.allCases)
    func roundTripsEveryProtocol(_ subprotocol: Subprotocol) throws {
        let codec = FrameCodec(subprotocol: subprotocol)
        #expect(try codec.decode(codec.encode(sample)) == sample)
    }

    /// A command encoded once for many recipients reads, for each, as if built for it: a
    /// `peerId` it had is replaced, and a long one takes a two-byte length.
    @Test(arguments: Subprotocol.allCases)
    func aSharedCommandDecodesAsAddressedToEachRecipient(_ subprotocol: Subprotocol) throws {
        let codec = FrameCodec(subprotocol: subprotocol)
        var original = sample
        original.peerID = "sender"
        let shared = SharedCommand(original)
        for peerID in ["bob", String(repeating: "é", count: 100), ""] {
            var expected = sample
            expected.peerID = peerID
            #expect(try codec.decode(codec.encode(shared, addressedTo: peerID)) == expected)
            #expect(shared.addressed(to: peerID) == expected)
        }
    }

    @Test func binaryProtocolsUseBinaryFramesAndTextOnesText() {
        guard case .binary = FrameCodec(subprotocol: .protobuf3).encode(sample) else { Issue.record("expected binary"); return }
        guard case .text = FrameCodec(subprotocol: .base64).encode(sample) else { Issue.record("expected text"); return }
    }

    @Test func rejectsGarbage() {
        let codec = FrameCodec(subprotocol: .protobuf3)
        #expect(throws: FrameCodec.DecodeError.invalidCommand) { try codec.decode(.binary([0xFF, 0xFF, 0xFF, 0xFF, 0x0F])) }
        #expect(throws: FrameCodec.DecodeError.wrongFrameKind) { try codec.decode(.text("hello")) }
        #expect(throws: FrameCodec.DecodeError.invalidBase64) { try FrameCodec(subprotocol: .base64).decode(.text("%%%")) }
        #expect(throws: FrameCodec.DecodeError.invalidCommand) { try FrameCodec(subprotocol: .json).decode(.text("{nope")) }
    }

    @Test func negotiationPrefersProtobufAndRefusesUnknown() {
        #expect(Subprotocol.negotiate(offered: "lc.proto2base64.3, lc.protobuf2.3") == .protobuf3)
        #expect(Subprotocol.negotiate(offered: "lc.proto2base64.3") == .base64)
        #expect(Subprotocol.negotiate(offered: nil) == .protobuf3)
        #expect(Subprotocol.negotiate(offered: "mqtt") == nil)
    }
}

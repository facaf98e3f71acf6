import Foundation
import SwiftProtobuf

/// Turns frames into `GenericCommand`s and back for one negotiated subprotocol.
public struct FrameCodec: Sendable {
    public let subprotocol: Subprotocol

    public init(subprotocol: Subprotocol) {
        self.subprotocol = subprotocol
    }

    public enum DecodeError: Error, Equatable {
        /// The frame is binary where text was expected, or the other way round.
        case wrongFrameKind
        /// Base64 that does not decode.
        case invalidBase64
        /// Bytes or JSON that are not a GenericCommand.
        case invalidCommand
    }

    public func decode(_ frame: Frame) throws(DecodeError) -> GenericCommand {
        switch (subprotocol, frame) {
        case (.protobuf1, .binary(let bytes)), (.protobuf2, .binary(let bytes)), (.protobuf3, .binary(let bytes)):
            return try Self.decodeProtobuf(bytes)
        case (.base64, .text(let text)):
            guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw .invalidBase64
            }
            return try Self.decodeProtobuf(Array(data))
        case (.json, .text(let text)):
            do {
                var options = JSONDecodingOptions()
                options.ignoreUnknownFields = true
                return try GenericCommand(jsonString: text, options: options)
            } catch {
                throw .invalidCommand
            }
        default:
            throw .wrongFrameKind
        }
    }

    public func encode(_ command: GenericCommand) -> Frame {
        switch subprotocol {
        case .protobuf1, .protobuf2, .protobuf3:
            return .binary(Self.protobufBytes(command))
        case .base64:
            return .text(Data(Self.protobufBytes(command)).base64EncodedString())
        case .json:
            // Encoding a fully built message to JSON cannot fail: every field is set by us.
            return .text((try? command.jsonString()) ?? "{}")
        }
    }

    /// `shared` as `peerID` receives it; over protobuf without encoding it again.
    public func encode(_ shared: SharedCommand, addressedTo peerID: String) -> Frame {
        switch subprotocol {
        case .protobuf1, .protobuf2, .protobuf3:
            return .binary(shared.protobuf(addressedTo: peerID))
        case .base64:
            return .text(Data(shared.protobuf(addressedTo: peerID)).base64EncodedString())
        case .json:
            return encode(shared.addressed(to: peerID))
        }
    }

    private static func decodeProtobuf(_ bytes: [UInt8]) throws(DecodeError) -> GenericCommand {
        do {
            // Partial messages are accepted: SDKs leave proto2 "required" fields unset at times,
            // and each handler checks what it actually needs.
            return try GenericCommand(serializedBytes: bytes, partial: true)
        } catch {
            throw .invalidCommand
        }
    }

    private static func protobufBytes(_ command: GenericCommand) -> [UInt8] {
        // Serializing with partial: true cannot throw for a message we built.
        (try? command.serializedBytes(partial: true)) ?? []
    }
}

import SwitchboardJSON
import SwitchboardWire

/// What must hold for any input the server parses from a client: the frame decoders of the
/// three subprotocols, the JSON reader and the conversation query filter. A violated check
/// stops the process, which is how the fuzzer reports a finding; the same checks replay the
/// saved inputs in the test suite.
///
/// The first byte picks what the rest of the input is fed to.
public enum FuzzChecks {
    public static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        switch selector % 5 {
        case 0: protobufFrame(body)
        case 1: textFrame(String(decoding: body, as: UTF8.self), .base64)
        case 2: textFrame(String(decoding: body, as: UTF8.self), .json)
        case 3: json(String(decoding: body, as: UTF8.self))
        default: filter(body)
        }
    }

    /// A binary frame that decodes encodes back to bytes that decode to the same command.
    private static func protobufFrame(_ bytes: [UInt8]) {
        let codec = FrameCodec(subprotocol: .protobuf3)
        guard let command = try? codec.decode(.binary(bytes)) else { return }
        let again = try? codec.decode(codec.encode(command))
        precondition(again == command, "a decoded protobuf command does not survive encoding")
    }

    /// A text frame that decodes encodes back to a frame that decodes.
    private static func textFrame(_ text: String, _ subprotocol: Subprotocol) {
        let codec = FrameCodec(subprotocol: subprotocol)
        guard let command = try? codec.decode(.text(text)) else { return }
        precondition((try? codec.decode(codec.encode(command))) != nil, "a decoded \(subprotocol) command does not survive encoding")
    }

    /// What the reader accepts, the writer writes back as the same value.
    private static func json(_ text: String) {
        guard let value = try? JSONValue(parsing: text) else { return }
        precondition((try? JSONValue(parsing: value.jsonString)) == value, "JSON does not survive writing: \(text)")
    }

    /// A query (before the first zero byte) evaluated against a document (after it).
    private static func filter(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
        let query = String(decoding: bytes[..<split], as: UTF8.self)
        let document = String(decoding: bytes[min(split + 1, bytes.endIndex)...], as: UTF8.self)
        guard let whereValue = try? JSONValue(parsing: query), let filter = try? DocumentFilter(whereValue) else { return }
        _ = filter.matches((try? JSONValue(parsing: document)) ?? .object([:]))
    }
}

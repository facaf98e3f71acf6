import Foundation
import SwitchboardHooks
import SwitchboardJSON

/// Refuses messages that carry web links, except from trusted senders.
///
/// Text messages are LeanCloud typed messages (`{"_lctype":-1,"_lctext":"..."}`) or plain
/// strings; both are checked. A refused send fails on the client with 4402 and
/// `appCode` 1001.
public struct LinkFilter: SwitchboardPlugin {
    public static let refusedCode: Int32 = 1001

    public let name = "link-filter"
    public let version = "1.0.0"
    public let priority = 10
    public let budget: Duration? = .milliseconds(20)

    private let trusted: Set<String>

    public init(trusted: Set<String> = []) {
        self.trusted = trusted
    }

    public func messageReceived(_ request: MessageReceivedRequest) async throws -> MessageResult {
        guard !request.bin, !trusted.contains(request.fromPeer) else { return .passThrough }
        guard Self.containsLink(Self.text(of: request.content)) else { return .passThrough }
        return MessageResult(drop: true, code: Self.refusedCode, detail: "links are not allowed here")
    }

    /// The readable text of a message: `_lctext` of a typed message, else the content itself.
    static func text(of content: String) -> String {
        guard content.hasPrefix("{"), let typed = try? JSONValue(parsing: content), let text = typed["_lctext"]?.stringValue else {
            return content
        }
        return text
    }

    static func containsLink(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("http://") || lowered.contains("https://") || lowered.contains("www.")
    }
}

import Foundation
import Logging
import Synchronization
import SwitchboardJSON

/// The built-in keyword filter at `_messageReceived` and `_messageUpdate`: listed words in a
/// message are replaced by `***` before it is stored or delivered, and its sender receives a
/// patch with code -4408. In typed messages only `_lctext` is filtered. The word list is a
/// UTF-8 file, one word a line (`#` starts a comment line), read again when it changes.
public final class KeywordFilter: HookHandler {
    public struct Settings: Sendable, Equatable {
        public var file: String
        public var ignoresCase: Bool
        public var conversationKinds: Set<ConversationKind>

        public init(file: String, ignoresCase: Bool = true, conversationKinds: Set<ConversationKind> = Set(ConversationKind.allCases)) {
            self.file = file
            self.ignoresCase = ignoresCase
            self.conversationKinds = conversationKinds
        }
    }

    /// LeanCloud's MESSAGE_MODIFIED_BY_CENSORSHIP, as the sender's patch code.
    public static let patchCode: Int32 = -4408

    public let name = "keyword-filter"
    public let kind = "builtin"
    /// Ahead of plugins and scripts, so they see filtered text.
    public let priority = 1000
    public let budget: Duration? = nil
    public let failurePolicy: FailurePolicy? = nil
    public let points: Set<HookPoint> = [.messageReceived, .messageUpdate]
    /// One pass over at most a few kilobytes: the pipeline's timer would cost more.
    public let enforcesBudget = true

    public let settings: Settings
    private let matcher: Mutex<KeywordMatcher>
    private let logger: Logger

    public init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
        matcher = Mutex(KeywordMatcher(keywords: [], ignoresCase: settings.ignoresCase))
        reload()
    }

    public var version: String { "\(matcher.withLock { $0.keywordCount }) words" }

    /// Reads the word list again; a missing or unreadable file leaves the current list.
    public func reload() {
        guard let text = try? String(contentsOfFile: settings.file, encoding: .utf8) else {
            logger.warning("keyword list not readable; keeping the current one", metadata: ["file": "\(settings.file)"])
            return
        }
        let words = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let loaded = KeywordMatcher(keywords: words, ignoresCase: settings.ignoresCase)
        matcher.withLock { $0 = loaded }
        logger.notice("keyword list loaded", metadata: ["file": "\(settings.file)", "words": "\(loaded.keywordCount)"])
    }

    /// Reloads the list whenever its file is written, until cancelled.
    public func watch() async throws {
        #if canImport(Glibc)
        let url = URL(fileURLWithPath: settings.file)
        let changes = try DirectoryWatcher.changes(in: url.deletingLastPathComponent().path)
        for await file in changes where file == url.lastPathComponent {
            if Task.isCancelled { return }
            reload()
        }
        #endif
    }

    public func handle<Request: HookRequest>(_ request: Request) async throws -> Request.Result {
        let result: MessageResult? = switch request {
        case let received as MessageReceivedRequest:
            filter(received.content, bin: received.bin, in: received.conversationKind)
        case let update as MessageUpdateRequest where !update.recall:
            filter(update.content, bin: update.bin, in: update.conversationKind)
        default:
            nil
        }
        return (result as? Request.Result) ?? .passThrough
    }

    /// The filtered content as a result, or nil when nothing needs masking.
    func filter(_ content: String, bin: Bool, in kind: ConversationKind) -> MessageResult? {
        guard !bin, settings.conversationKinds.contains(kind) else { return nil }
        let matcher = matcher.withLock { $0 }
        // Most messages are clean: one scan of the raw content settles them without parsing JSON.
        guard matcher.keywordCount > 0, matcher.matches(content) else { return nil }
        let filtered: String?
        if content.first == "{", case .object(var typed)? = try? JSONValue(parsing: content), typed["_lctype"] != nil {
            guard case .string(let text)? = typed["_lctext"], let masked = matcher.masked(text) else { return nil }
            typed["_lctext"] = .string(masked)
            filtered = JSONValue.object(typed).jsonString
        } else {
            filtered = matcher.masked(content)
        }
        guard let filtered else { return nil }
        return MessageResult(code: Self.patchCode, detail: "filtered by keywords", content: filtered)
    }
}

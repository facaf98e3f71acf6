/// A page of a client list (silenced members, a blacklist, mutes) as LeanCloud pages them:
/// `next` is where the previous page stopped, given back as the server wrote it.
public enum ListPage {
    public static let defaultLimit = 10
    public static let maxLimit = 100

    /// The page of `list` that starts at `next` (the beginning without one), and the `next`
    /// of the page after it, if any.
    public static func of(_ list: [String], limit: Int?, next: String?) throws -> (page: [String], next: String?) {
        let size = limit.map { min(max($0, 1), maxLimit) } ?? defaultLimit
        var start = 0
        if let next, !next.isEmpty {
            guard let offset = Int(next), offset >= 0 else { throw CommandError(.conversationAPIFailed, detail: "next is not one the server gave") }
            start = min(offset, list.count)
        }
        let end = min(start + size, list.count)
        return (Array(list[start..<end]), end < list.count ? String(end) : nil)
    }
}

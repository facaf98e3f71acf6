import Foundation

/// `manifest.json` of an export folder (docs/leancloud-export-format.md): what was exported
/// from where, each run, and the positions a run goes on from.
struct ExportManifest: Codable, Equatable {
    static let formatName = "switchboard-leancloud-export"

    var format = formatName
    var version = 1
    var server: String
    var appId: String
    var runs: [Run] = []
    var state = ExportState()

    init(server: String, appId: String) {
        self.server = server
        self.appId = appId
    }

    /// One run of `leancloud export` on the folder; a killed run is taken up again by the next.
    struct Run: Codable, Equatable {
        var started: String
        /// Null while the run is under way, and after one that was killed.
        var finished: String?
        /// Objects and lists updated before this were not asked for (a later run, or `--since`).
        var since: String?
        /// Lines added to each file by this run, and `messages`.
        var counts: [String: Int] = [:]
        var requests = 0
        var retries = 0

        init(started: String, since: String?) {
            self.started = started
            self.since = since
        }

        // `finished` and `since` are written as null rather than left out, as the format shows them.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(started, forKey: .started)
            try container.encode(finished, forKey: .finished)
            try container.encode(since, forKey: .since)
            try container.encode(counts, forKey: .counts)
            try container.encode(requests, forKey: .requests)
            try container.encode(retries, forKey: .retries)
        }
    }
}

/// Where the exporter stands. `files` and `messages` carry over from run to run; the class
/// and conversation passes are the current run's.
struct ExportState: Codable, Equatable {
    /// Each data file's length in bytes as of the last recorded position; a file is cut back
    /// to it before a run goes on, so what a killed run wrote past it is written once again.
    var files: [String: Int] = [:]
    /// The classes of the current run, in the order they are walked.
    var classes: [ClassPass] = []
    var conversations = ConversationPass()
    var messages = MessagePosition()

    /// A walk through a class by `objectId`.
    struct ClassPass: Codable, Equatable {
        var name: String
        /// Only objects updated from this on are asked for: the run's `since`, for a class an
        /// earlier run exported (or with `--since`); nil for one this run exports first.
        var since: String?
        /// The greatest objectId written so far: the walk goes on past it.
        var last: String?
        var count = 0
        var done = false

        init(name: String, since: String?) {
            self.name = name
            self.since = since
        }
    }

    /// The visit of the conversations this run's `_Conversation` walk wrote: the lines of
    /// `classes/_Conversation.jsonl` from byte `from`, visited up to byte `at`.
    struct ConversationPass: Codable, Equatable {
        var from = 0
        var at = 0
        var visited = 0
        var done = false
        /// The lists of the conversation at `at`, as far as they have been read.
        var current: ListProgress?
    }

    /// One conversation's lists read so far: the list being read and the page to ask for next.
    struct ListProgress: Codable, Equatable {
        enum List: String, Codable { case blocked, silenced, subscribers }

        var conversationID: String
        var list: List
        /// The `next` (blacklists, silenced) or last `client_id` (subscribers) to go on from.
        var next: String?
        var blocked: [String] = []
        var silenced: [String] = []
    }

    /// The last message written, and the messages file being filled.
    struct MessagePosition: Codable, Equatable {
        var timestamp: Int64?
        var msgid: String?
        var file = 1
        var inFile = 0
    }
}

/// What goes to and comes back from a script host.
extension ScriptWorker {
    /// Identifies one version of one script.
    struct Key: Hashable, Sendable {
        var name: String
        var version: String
    }

    /// The result of a call, with what the script logged and how big its heap is now.
    struct Call: Sendable {
        var outcome: Outcome
        var logs: [(level: String, text: String)]
        /// Measured on some calls only; nil when not measured.
        var heapBytes: Int?
    }

    enum Outcome: Sendable, Equatable {
        case value(String)
        case failed(String)
        case timedOut
        case notLoaded
        /// The host's memory grew past its allowance during the call.
        case exceededMemory
    }

    /// What a script declared when it loaded.
    struct LoadReport: Sendable {
        var hooks: [String]
        /// Declared but not run: ordinary cloud functions, class hooks, ...
        var inert: [String] = []
        var optionsJSON: String
        var logs: [(level: String, text: String)]
    }

    /// Why a host went away while it worked on a request.
    enum Loss: String, Sendable {
        case overran
        case memory
        case crashed
    }
}

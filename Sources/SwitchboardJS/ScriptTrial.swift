import Foundation

/// Runs one hook of one script once, in the same sandbox and under the same CPU budget as
/// the server would: what `switchboard hooks test` does.
public enum ScriptTrial {
    public struct Report: Sendable {
        public enum Outcome: Sendable, Equatable {
            /// The result, as JSON.
            case value(String)
            case failed(String)
            case timedOut
        }

        public var outcome: Outcome
        /// (level, text) lines written with `console`, while loading and during the call.
        public var console: [(level: String, text: String)]
        public var duration: Duration
        /// The hooks the script defines.
        public var hooks: [String]
    }

    /// Loads `source` and calls its `hook` with `paramsJSON`. Throws if the script does not load.
    public static func run(source: String, file: String, hook: String, paramsJSON: String, budget: Duration) throws(ScriptError) -> Report {
        let context = try ScriptContext(source: source, file: file, budget: budget)
        var console = context.drainLogs()
        let started = ContinuousClock.now
        let outcome: Report.Outcome = switch context.invoke(hook: hook, paramsJSON: paramsJSON) {
        case .value(let json): .value(json)
        case .failed(let message): .failed(message)
        case .timedOut: .timedOut
        }
        let duration = ContinuousClock.now - started
        console += context.drainLogs()
        return Report(outcome: outcome, console: console.map { (level: $0.0, text: $0.1) }, duration: duration, hooks: context.hooks)
    }

    /// Loads `source` to see whether it would load, and which hooks it defines.
    public static func check(source: String, file: String, budget: Duration) throws(ScriptError) -> [String] {
        try ScriptContext(source: source, file: file, budget: budget).hooks
    }
}

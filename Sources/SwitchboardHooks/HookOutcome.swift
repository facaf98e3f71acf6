/// What a blocking hook point's chain decided.
public struct HookOutcome<Request: HookRequest>: Sendable {
    /// Why the chain stopped early.
    public struct Stop: Sendable {
        /// The handler that dropped or rejected, or that failed under the `closed` policy.
        public var handler: String
        public var code: Int32?
        public var detail: String?
        /// The handler failed or timed out (rather than deciding to stop).
        public var failed: Bool
    }

    /// One handler's answer, in chain order.
    public struct Step: Sendable {
        public var handler: String
        public var result: Request.Result
    }

    /// The request after every handler's changes.
    public var request: Request
    public var stop: Stop?
    public var steps: [Step]

    public var isStopped: Bool { stop != nil }
}

extension HookOutcome where Request.Result == MessageResult {
    /// The code and detail of the patch a sender receives when hooks changed its content:
    /// those of the last handler that replaced it; code 1 and "modified by hook" when it gave
    /// none. Codes are positive, but for the keyword filter's -4408.
    public var contentPatch: (code: Int32, detail: String)? {
        guard let step = steps.last(where: { $0.result.content != nil }) else { return nil }
        let code = step.result.code.flatMap { $0 > 0 || $0 == KeywordFilter.patchCode ? $0 : nil } ?? 1
        return (code, step.result.detail ?? "modified by hook")
    }
}

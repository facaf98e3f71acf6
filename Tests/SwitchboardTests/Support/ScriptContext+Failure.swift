import Testing

@testable import SwitchboardJS

extension ScriptContext {
    /// The message of a call that is to fail; records an issue (and gives "") if it did not.
    func failure(of hook: String, paramsJSON: String = "{}", sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let outcome = invoke(hook: hook, paramsJSON: paramsJSON)
        guard case .failed(let message) = outcome else {
            Issue.record("\(hook) did not fail: \(outcome)", sourceLocation: sourceLocation)
            return ""
        }
        return message
    }
}

import Foundation
import SwitchboardHooks

/// A LeanEngine app that answers hooks over HTTP, as LeanCloud called it (`hooks.remote`).
public struct RemoteEngine: Sendable, Equatable {
    /// The handler's name in the pipeline, metrics and `hooks list`.
    public var name: String
    /// Where the app listens: hooks go to `{url}/1.1/functions/{hook}`.
    public var url: URL
    /// The app's `LEANCLOUD_APP_HOOK_KEY`, sent as `X-LC-Hook-Key`.
    public var hookKey: String
    /// The hook points it answers; every point when the config names none.
    public var points: Set<HookPoint> = Set(HookPoint.allCases)
    public var budget: Duration?
    public var failurePolicy: FailurePolicy?
    public var priority: Int?
    /// Calls in flight at once; past that a call fails at once under its policy.
    public var maxConcurrent = OutboundHTTP.connectionsPerHost
    /// Failures in a row after which calls fail fast for `cooldown`, until one probe call
    /// gets through.
    public var breakerFailures = 5
    public var breakerCooldown: Duration = .seconds(5)

    public init(name: String, url: URL, hookKey: String) {
        self.name = name
        self.url = url
        self.hookKey = hookKey
    }
}

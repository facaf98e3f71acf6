/// A handler ran past its time budget. Handlers that enforce their own budget (scripts, by
/// CPU time) throw it too, so every time-out is counted and handled alike.
public struct HookTimeout: Error, Sendable, Equatable {
    public init() {}
}

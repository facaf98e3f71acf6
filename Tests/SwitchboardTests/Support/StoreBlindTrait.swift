import Testing

extension Trait where Self == ConditionTrait {
    /// For suites whose tests never reach the message store (scripts, hooks, codecs,
    /// transport limits, units): they run in the SQLite pass of `scripts/test` and are
    /// skipped in its PostgreSQL pass, where they would test nothing new. A condition rather
    /// than a tag: `swift test --skip` matches names only.
    static var storeBlind: Self {
        .disabled(if: TestDatabase.postgresURL != nil, "never reaches the store: runs in the SQLite pass")
    }
}

extension AndroidPushContent {
    /// LeanCloud's `badge`: a number the app icon's count is set to, or `"Increment"`, one more.
    enum Badge: Equatable {
        case set(Int64)
        case increment
    }

    /// The badge the data asks for; the makers take counts of 0 to 99.
    var badge: Badge? {
        if data["badge"]?.stringValue == "Increment" { return .increment }
        return data["badge"]?.int64Value.map { .set(min(max($0, 0), 99)) }
    }
}

/// What a client id may be. LeanCloud documents letters, digits, `_` and `-`, at most 64;
/// Switchboard refuses only what breaks something: empty or long ids, and `:`, which joins
/// ids in the strings signatures are made over, so `x:y` would pass for `x` and `y`.
enum ClientID {
    static let maxLength = 64

    static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.count <= maxLength && !id.contains(":")
    }

    static let rule = "client ids are 1 to \(maxLength) characters without ':'"
}

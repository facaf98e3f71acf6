/// New object ids in LeanCloud's form: 24 hex digits, the creation second first (so ids
/// sort roughly by creation, as LeanStorage's did) and 16 random digits after it.
enum ObjectIDs {
    static func make(at milliseconds: Int64) -> String {
        let seconds = UInt32(truncatingIfNeeded: milliseconds / 1000)
        return hex(UInt64(seconds), digits: 8) + hex(UInt64.random(in: 0...UInt64.max), digits: 16)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }
}

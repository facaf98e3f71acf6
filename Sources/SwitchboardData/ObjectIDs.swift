import Synchronization

/// New object ids in LeanCloud's (MongoDB's) form: 24 hex digits, the creation second,
/// then a random number for this process, then a counter. Ids made by one node sort in
/// the order they were made, so objects created in the same millisecond keep their order.
enum ObjectIDs {
    private static let process = UInt64.random(in: 0...0xFF_FFFF)
    private static let counter = Atomic<UInt64>(UInt64.random(in: 0...0xFF_FFFF_FFFF))

    static func make(at milliseconds: Int64) -> String {
        let seconds = UInt64(UInt32(truncatingIfNeeded: milliseconds / 1000))
        let count = counter.add(1, ordering: .relaxed).newValue & 0xFF_FFFF_FFFF
        return hex(seconds, digits: 8) + hex(process, digits: 6) + hex(count, digits: 10)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }
}

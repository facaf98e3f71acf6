import Synchronization
import SwitchboardData

/// Message ids in LeanCloud's shape (22 URL-safe characters) that sort by time: the first 7
/// characters are the system clock's milliseconds (the id's order on disk, not a time the
/// core reasons with, so not the core's `WallClock`), the other 15 a keyed hash (SipHash, through
/// `Hasher`) of a per-process random key and a counter.
///
/// Sorting by time keeps the index on message ids appending at its end: random ids put
/// every new message on a leaf page of its own, which each commit then wrote out again. The
/// key makes the rest of the id unpredictable to clients and different from any earlier
/// process's (even with `SWIFT_DETERMINISTIC_HASHING` set); the counter makes ids differ
/// within this one. No system call per id: drawing from the system's generator cost a
/// `getrandom` call each, a few percent of the server's CPU per message.
final class MessageIDGenerator: Sendable {
    /// The URL-safe characters in byte order, so that a larger time is a later string.
    private static let timeAlphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)
    private static let alphabet = Array(Identifiers.urlSafeAlphabet.utf8)
    /// 7 characters of 6 bits hold the milliseconds until the year 2109.
    private static let timeCharacters = 7

    private let key: (UInt64, UInt64)
    private let counter = Atomic<UInt64>(0)
    private let clock = SystemWallClock()

    init() {
        var generator = SystemRandomNumberGenerator()
        key = (generator.next(), generator.next())
    }

    func next() -> String {
        let count = counter.add(1, ordering: .relaxed).newValue
        let time = UInt64(max(clock.now(), 0))
        var bits = (hash(count, 0), hash(count, 1))
        return String(unsafeUninitializedCapacity: 22) { buffer in
            for index in 0..<Self.timeCharacters {
                let shift = UInt64(6 * (Self.timeCharacters - 1 - index))
                buffer[index] = Self.timeAlphabet[Int((time >> shift) & 63)]
            }
            for index in Self.timeCharacters..<22 {
                buffer[index] = Self.alphabet[Int(bits.0 & 63)]
                // Shift the 128 bits right by 6 across both words.
                bits.0 = (bits.0 >> 6) | (bits.1 << 58)
                bits.1 >>= 6
            }
            return 22
        }
    }

    private func hash(_ count: UInt64, _ half: UInt64) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(key.0)
        hasher.combine(key.1)
        hasher.combine(count)
        hasher.combine(half)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }
}

import Synchronization

/// Message ids without a system call each: a keyed hash (SipHash, through `Hasher`) of a
/// per-process random key and a counter. The key makes ids unpredictable to clients and
/// different from any earlier process's (even with `SWIFT_DETERMINISTIC_HASHING` set);
/// the counter makes them differ within this one. Drawing 22 characters from the system's
/// generator cost a `getrandom` call each, a few percent of the server's CPU per message.
final class MessageIDGenerator: Sendable {
    private static let alphabet = Array(Identifiers.urlSafeAlphabet.utf8)

    private let key: (UInt64, UInt64)
    private let counter = Atomic<UInt64>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        key = (generator.next(), generator.next())
    }

    /// 22 characters of the URL-safe alphabet (128 bits), LeanCloud's shape.
    func next() -> String {
        let count = counter.add(1, ordering: .relaxed).newValue
        var bits = (hash(count, 0), hash(count, 1))
        return String(unsafeUninitializedCapacity: 22) { buffer in
            for index in 0..<22 {
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

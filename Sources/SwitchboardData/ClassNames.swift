/// Which class and key names LeanStorage accepts: letters, digits and `_`, not starting
/// with a digit; class names may start with `_` (`_User`), keys may not.
public enum ClassNames {
    static let maxLength = 128

    public static func validate(className name: String) throws(StorageError) {
        guard isName(name, leadingUnderscore: true) else { throw .invalidClassName(name) }
    }

    static func validate(key: String) throws(StorageError) {
        guard isName(key, leadingUnderscore: false) else { throw .invalidKey(key) }
    }

    /// Object ids: LeanCloud's are 24 hex digits; imported ones may be any letters and digits.
    public static func validate(objectID id: String) throws(StorageError) {
        guard !id.isEmpty, id.utf8.count <= maxLength, id.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else {
            throw .invalidObjectID(id)
        }
    }

    private static func isName(_ name: String, leadingUnderscore: Bool) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= maxLength else { return false }
        guard isLetter(first) || (leadingUnderscore && first == UInt8(ascii: "_")) else { return false }
        return bytes.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

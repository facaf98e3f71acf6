import CZlib
import Foundation

/// The CRC-32 zip keeps for each entry (zlib's, the same polynomial).
struct CRC32 {
    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: Data) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            value = UInt32(crc32(uLong(value), base.assumingMemoryBound(to: Bytef.self), uInt(buffer.count)))
        }
    }
}

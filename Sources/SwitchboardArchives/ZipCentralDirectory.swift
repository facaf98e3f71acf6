import Foundation

/// A zip's table of contents: the end-of-central-directory record at the file's end (and its
/// zip64 form, for archives past 4 GB or 65,535 entries), then one header per entry with its
/// name, method, CRC-32, sizes and where its local header is. Entries written with a data
/// descriptor (sizes unknown when their local header was written) have them here.
struct ZipCentralDirectory {
    struct Entry {
        let path: String
        let flags: UInt16
        let method: UInt16
        let crc: UInt32
        let compressedSize: UInt64
        let size: UInt64
        let localHeaderOffset: UInt64
    }

    let entries: [Entry]

    static let missing = ArchiveError("not a whole zip archive: its end (the central directory) is missing, so it was probably cut short")

    static let endRecordSize = 22
    static let maxCommentSize = 0xFFFF

    init(path: String) throws {
        let fileSize = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        let tailSize = min(fileSize, UInt64(Self.endRecordSize + Self.maxCommentSize))
        let tail = try Self.bytes(path, at: fileSize - tailSize, count: Int(tailSize))
        guard let end = Self.endRecord(in: tail) else { throw Self.missing }
        let record = LittleEndian(bytes: tail, base: end)
        var count = UInt64(record.u16(10))
        var directorySize = UInt64(record.u32(12))
        var directoryOffset = UInt64(record.u32(16))
        let endOffset = fileSize - tailSize + UInt64(end)
        if end >= 20, LittleEndian(bytes: tail, base: end - 20).u32(0) == 0x0706_4B50 {
            let zip64EndOffset = LittleEndian(bytes: tail, base: end - 20).u64(8)
            let zip64End = LittleEndian(bytes: try Self.bytes(path, at: zip64EndOffset, count: 56))
            guard zip64End.u32(0) == 0x0606_4B50 else { throw ArchiveError("its zip64 end record is damaged") }
            count = zip64End.u64(32)
            directorySize = zip64End.u64(40)
            directoryOffset = zip64End.u64(48)
        }
        guard directoryOffset <= endOffset, directorySize <= endOffset - directoryOffset else {
            throw ArchiveError("its central directory is damaged (it would lie outside the file)")
        }
        let directory = try Self.bytes(path, at: directoryOffset, count: Int(directorySize))
        var entries: [Entry] = []
        var offset = 0
        for _ in 0..<count {
            let (entry, next) = try Self.entry(in: directory, at: offset)
            entries.append(entry)
            offset = next
        }
        self.entries = entries
    }

    /// Where the end record starts in `tail`: the last signature whose comment reaches no
    /// further than the file does.
    private static func endRecord(in tail: [UInt8]) -> Int? {
        guard tail.count >= endRecordSize else { return nil }
        for start in stride(from: tail.count - endRecordSize, through: 0, by: -1) {
            let record = LittleEndian(bytes: tail, base: start)
            if record.u32(0) == 0x0605_4B50, start + endRecordSize + Int(record.u16(20)) <= tail.count { return start }
        }
        return nil
    }

    private static func entry(in directory: [UInt8], at offset: Int) throws -> (Entry, Int) {
        let damaged = ArchiveError("its central directory is damaged")
        guard offset + 46 <= directory.count else { throw damaged }
        let header = LittleEndian(bytes: directory, base: offset)
        guard header.u32(0) == 0x0201_4B50 else { throw damaged }
        let nameLength = Int(header.u16(28)), extraLength = Int(header.u16(30)), commentLength = Int(header.u16(32))
        let next = offset + 46 + nameLength + extraLength + commentLength
        guard next <= directory.count else { throw damaged }
        var compressedSize = UInt64(header.u32(20)), size = UInt64(header.u32(24)), localHeaderOffset = UInt64(header.u32(42))
        // The zip64 extra field holds, in this order, those of the three that are 0xFFFFFFFF here.
        var extra = offset + 46 + nameLength
        let extraEnd = extra + extraLength
        while extra + 4 <= extraEnd {
            let field = LittleEndian(bytes: directory, base: extra)
            let fieldEnd = extra + 4 + Int(field.u16(2))
            guard fieldEnd <= extraEnd else { throw damaged }
            if field.u16(0) == 0x0001 {
                var at = extra + 4
                func widen(_ value: inout UInt64) throws {
                    guard value == 0xFFFF_FFFF else { return }
                    guard at + 8 <= fieldEnd else { throw damaged }
                    value = LittleEndian(bytes: directory).u64(at)
                    at += 8
                }
                try widen(&size)
                try widen(&compressedSize)
                try widen(&localHeaderOffset)
            }
            extra = fieldEnd
        }
        let path = String(decoding: directory[offset + 46..<offset + 46 + nameLength], as: UTF8.self)
        let entry = Entry(
            path: path, flags: header.u16(8), method: header.u16(10), crc: header.u32(16),
            compressedSize: compressedSize, size: size, localHeaderOffset: localHeaderOffset
        )
        return (entry, next)
    }

    static func bytes(_ path: String, at offset: UInt64, count: Int) throws -> [UInt8] {
        let source = try FileByteSource(path: path, offset: offset, length: UInt64(count))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count { bytes += try source.read(upTo: count - bytes.count) }
        return bytes
    }
}

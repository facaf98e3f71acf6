import Foundation

/// A zip's entries found from its start, header by header, for a zip whose central directory
/// is missing (a download cut short): each local header gives an entry's name and, unless a
/// data descriptor follows its data, its sizes and CRC-32; a deflated entry with a data
/// descriptor is inflated to find where it ends. The walk stops at the central directory, or
/// where the file is cut.
struct ZipLocalHeaders {
    var entries: [ZipCentralDirectory.Entry] = []
    /// Why the walk stopped before the central directory, if it did.
    var problem: String?

    init(path: String) {
        var offset: UInt64 = 0
        do {
            while let (entry, next) = try Self.entry(in: path, at: offset) {
                entries.append(entry)
                offset = next
            }
        } catch {
            let after = entries.last.map { " after \($0.path)" } ?? ""
            problem = "its central directory is missing (cut short?), and its entries cannot be followed\(after): \(error)"
        }
    }

    /// The entry whose local header is at `offset`, and where the next header starts; nil at
    /// the central directory.
    private static func entry(in path: String, at offset: UInt64) throws -> (ZipCentralDirectory.Entry, UInt64)? {
        let header = LittleEndian(bytes: try ZipCentralDirectory.bytes(path, at: offset, count: 30))
        guard header.u32(0) == 0x0403_4B50 else {
            guard header.u32(0) == 0x0201_4B50 else { throw ArchiveError("damaged: no local header where one should be") }
            return nil
        }
        let flags = header.u16(6), method = header.u16(8)
        let nameLength = Int(header.u16(26)), extraLength = Int(header.u16(28))
        let variable = try ZipCentralDirectory.bytes(path, at: offset + 30, count: nameLength + extraLength)
        let name = String(decoding: variable[..<nameLength], as: UTF8.self)
        var size = UInt64(header.u32(22)), compressedSize = UInt64(header.u32(18)), crc = header.u32(14)
        let zip64 = Self.zip64Sizes(in: Array(variable[nameLength...]))
        if let zip64 { (size, compressedSize) = zip64 }
        let dataOffset = offset + 30 + UInt64(nameLength + extraLength)
        var next = dataOffset + compressedSize
        if flags & 0x08 != 0 {
            guard method == 8 else { throw ArchiveError("\(name) is stored with a data descriptor: where it ends is only in the central directory") }
            let inflater = try InflatingSource(FileByteSource(path: path, offset: dataOffset), format: .rawDeflate)
            while try !inflater.read(upTo: BufferedReader.block).isEmpty {}
            compressedSize = inflater.compressedBytesRead
            // The descriptor: an optional signature, the CRC-32, then the two sizes (8 bytes each in zip64).
            let descriptorOffset = dataOffset + compressedSize
            let first = LittleEndian(bytes: try ZipCentralDirectory.bytes(path, at: descriptorOffset, count: 4)).u32(0)
            let fields = descriptorOffset + (first == 0x0807_4B50 ? 4 : 0)
            let descriptor = LittleEndian(bytes: try ZipCentralDirectory.bytes(path, at: fields, count: zip64 == nil ? 12 : 20))
            crc = descriptor.u32(0)
            size = zip64 == nil ? UInt64(descriptor.u32(8)) : descriptor.u64(12)
            next = fields + (zip64 == nil ? 12 : 20)
        }
        let entry = ZipCentralDirectory.Entry(
            path: name, flags: flags, method: method, crc: crc, compressedSize: compressedSize, size: size, localHeaderOffset: offset
        )
        return (entry, next)
    }

    /// A local header's zip64 field: the uncompressed then the compressed size.
    private static func zip64Sizes(in extra: [UInt8]) -> (UInt64, UInt64)? {
        var at = 0
        while at + 4 <= extra.count {
            let field = LittleEndian(bytes: extra, base: at)
            let length = Int(field.u16(2))
            if field.u16(0) == 0x0001, length >= 16, at + 4 + length <= extra.count { return (field.u64(4), field.u64(12)) }
            at += 4 + length
        }
        return nil
    }
}

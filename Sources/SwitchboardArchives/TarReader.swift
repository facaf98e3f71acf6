import Foundation

/// The entries of a tar stream in order: ustar headers (with their name prefix), pax
/// extended headers (`path`, `size`), and GNU long names. As a byte source it reads the
/// current entry's data; `nextEntry` moves past whatever of it was not read.
final class TarReader: ByteSource {
    struct Entry {
        let path: String
        let size: UInt64
    }

    static let blockSize = 512
    /// Bounds on what a header may make this reader hold (a long name, pax records).
    static let maxHeaderData: UInt64 = 1 << 20

    private let reader: BufferedReader
    /// Data of the current entry left unread, and the padding after it to the next block.
    private var remaining: UInt64 = 0
    private var padding: UInt64 = 0

    init(_ source: any ByteSource) {
        reader = BufferedReader(source)
    }

    /// The next file entry, nil at the archive's end (its zero blocks, or the stream's end
    /// between entries).
    func nextEntry() throws -> Entry? {
        guard try reader.skip(remaining + padding) else { throw Self.cutShort }
        remaining = 0
        padding = 0
        var longPath: String?
        var paxPath: String?
        var paxSize: UInt64?
        while true {
            guard let header = try reader.read(exactly: Self.blockSize) else {
                if try reader.atEnd() { return nil }
                throw Self.cutShort
            }
            if header.allSatisfy({ $0 == 0 }) { return nil }
            guard Self.checksumMatches(header) else { throw ArchiveError("damaged: a header's checksum does not match") }
            let headerSize = try Self.size(header)
            let type = header[156]
            switch type {
            case UInt8(ascii: "L"), UInt8(ascii: "x"), UInt8(ascii: "g"), UInt8(ascii: "K"):
                guard headerSize <= Self.maxHeaderData else { throw ArchiveError("damaged: a header of \(headerSize) bytes") }
                guard let data = try reader.read(exactly: Int(headerSize)), try reader.skip(Self.padding(after: headerSize)) else { throw Self.cutShort }
                if type == UInt8(ascii: "L") {
                    longPath = Self.text(data[...])
                } else if type == UInt8(ascii: "x") {
                    let records = Self.paxRecords(data)
                    paxPath = records["path"]
                    paxSize = records["size"].flatMap { UInt64($0) }
                }
            case UInt8(ascii: "0"), 0, UInt8(ascii: "7"):
                let size = paxSize ?? headerSize
                remaining = size
                padding = Self.padding(after: size)
                return Entry(path: longPath ?? paxPath ?? Self.ustarPath(header), size: size)
            default:
                // Folders, links and devices: nothing to read, their data (if any) passed over.
                guard try reader.skip(headerSize + Self.padding(after: headerSize)) else { throw Self.cutShort }
                longPath = nil
                paxPath = nil
                paxSize = nil
            }
        }
    }

    func read(upTo limit: Int) throws -> Data {
        guard remaining > 0 else { return Data() }
        let chunk = try reader.read(upTo: Int(min(UInt64(limit), remaining)))
        guard !chunk.isEmpty else { throw ArchiveError("the archive ends inside this entry (cut short?)") }
        remaining -= UInt64(chunk.count)
        return chunk
    }

    /// Reads to the end of the stream, so that a gzip trailer after the tar's end is checked.
    func readToEnd() throws {
        while try !reader.read(upTo: BufferedReader.block).isEmpty {}
    }

    private static let cutShort = ArchiveError("the archive ends inside a header (cut short?)")

    private static func padding(after size: UInt64) -> UInt64 {
        (UInt64(blockSize) - size % UInt64(blockSize)) % UInt64(blockSize)
    }

    /// The sum of the header's bytes with its checksum field counted as spaces, as tar writes
    /// it (some old tars summed signed bytes; both are taken).
    private static func checksumMatches(_ header: [UInt8]) -> Bool {
        guard let stored = octal(header[148..<156]) else { return false }
        var unsigned: Int64 = 0
        var signed: Int64 = 0
        for (index, byte) in header.enumerated() {
            let counted = (148..<156).contains(index) ? UInt8(ascii: " ") : byte
            unsigned += Int64(counted)
            signed += Int64(Int8(bitPattern: counted))
        }
        return UInt64(unsigned) == stored || Int64(stored) == signed
    }

    /// The size field: octal digits, or (GNU, past 8 GB) a big-endian number after a 0x80 byte.
    private static func size(_ header: [UInt8]) throws -> UInt64 {
        let field = header[124..<136]
        if let first = field.first, first & 0x80 != 0 {
            return field.dropFirst().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        guard let size = octal(field) else { throw ArchiveError("damaged: a header's size is not a number") }
        return size
    }

    private static func octal(_ field: ArraySlice<UInt8>) -> UInt64? {
        let digits = field.drop { $0 == UInt8(ascii: " ") || $0 == 0 }.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") }
        guard !digits.isEmpty else { return field.allSatisfy { $0 == 0 || $0 == UInt8(ascii: " ") } ? 0 : nil }
        return digits.reduce(UInt64(0)) { $0 << 3 | UInt64($1 - UInt8(ascii: "0")) }
    }

    private static func ustarPath(_ header: [UInt8]) -> String {
        let name = text(header[0..<100])
        // POSIX ustar ("ustar\0") has a name prefix there; GNU tar ("ustar  ") keeps times there.
        let isPOSIX = header[257..<263].elementsEqual("ustar\0".utf8)
        let prefix = isPOSIX ? text(header[345..<500]) : ""
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// pax records: `<length> <key>=<value>\n`, the length counting the whole record.
    private static func paxRecords(_ data: [UInt8]) -> [String: String] {
        var records: [String: String] = [:]
        var start = 0
        while start < data.count, let space = data[start...].firstIndex(of: UInt8(ascii: " ")),
              let length = Int(String(decoding: data[start..<space], as: UTF8.self)), length > 0, start + length <= data.count {
            let record = data[(space + 1)..<(start + length - 1)]
            if let equals = record.firstIndex(of: UInt8(ascii: "=")) {
                records[String(decoding: record[..<equals], as: UTF8.self)] = String(decoding: record[(equals + 1)...], as: UTF8.self)
            }
            start += length
        }
        return records
    }
}

import Foundation

/// A zip archive (the console's download, or one made by hand), read through its central
/// directory: stored and deflated entries, zip64 sizes, entries with data descriptors, each
/// one's CRC-32 checked as it is read. A zip cut short, its central directory lost, is read
/// from its start instead, header by header, as far as it goes.
public final class ZipArchive: Archive {
    private let path: String
    private let files: [ZipCentralDirectory.Entry]
    private let problem: String?

    public init(path: String) throws {
        self.path = path
        let entries: [ZipCentralDirectory.Entry]
        do {
            entries = try ZipCentralDirectory(path: path).entries
            problem = nil
        } catch let error as ArchiveError where error == ZipCentralDirectory.missing {
            let walk = ZipLocalHeaders(path: path)
            guard !walk.entries.isEmpty else { throw ArchiveError(walk.problem ?? error.description) }
            entries = walk.entries
            problem = walk.problem ?? "its central directory's end record is missing: its entries were found from its start"
        }
        files = entries.filter { !$0.path.hasSuffix("/") }
    }

    public func check() throws -> ArchiveCheck {
        let entries = files.enumerated().map { index, file in
            var entry = ArchiveEntry(index: index, path: file.path, size: file.size)
            do {
                entry.damage = Archives.readThrough(try open(entry))
            } catch {
                entry.damage = "\(error)"
            }
            return entry
        }
        return ArchiveCheck(entries: entries, problem: problem)
    }

    public func open(_ entry: ArchiveEntry) throws -> any ByteSource {
        let file = files[entry.index]
        guard file.flags & 1 == 0 else { throw ArchiveError("it is encrypted") }
        guard file.method == 0 || file.method == 8 else {
            throw ArchiveError("it is compressed with method \(file.method); only stored (0) and deflated (8) entries are read")
        }
        let local = LittleEndian(bytes: try ZipCentralDirectory.bytes(path, at: file.localHeaderOffset, count: 30))
        guard local.u32(0) == 0x0403_4B50 else { throw ArchiveError("damaged: its local header is not where the central directory says") }
        let dataOffset = file.localHeaderOffset + 30 + UInt64(local.u16(26)) + UInt64(local.u16(28))
        let data = try FileByteSource(path: path, offset: dataOffset, length: file.compressedSize)
        let bytes: any ByteSource = file.method == 8 ? try InflatingSource(data, format: .rawDeflate) : data
        return ChecksummedSource(bytes, size: file.size, crc: file.crc)
    }
}

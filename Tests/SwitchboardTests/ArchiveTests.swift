import Foundation
import SwitchboardArchives
import Testing

/// Zips and .tar.gz archives made by Python's zipfile and tarfile (and one zip64 built byte
/// by byte), read entry by entry: what they hold, and what is found when one is damaged.
@Suite struct ArchiveTests {
    private func archive(_ path: String) throws -> any Archive {
        try #require(try Archives.open(path: path), "\(path) is not taken for an archive")
    }

    private func text(_ source: any ByteSource) throws -> String {
        var data = Data()
        while true {
            let chunk = try source.read(upTo: 1000)
            if chunk.isEmpty { return String(decoding: data, as: UTF8.self) }
            data += chunk
        }
    }

    /// Text that deflate cannot shrink much, so a byte in its middle is inside the entry's data.
    private func noise(_ count: Int, seed: UInt64) -> String {
        var state = seed
        return String((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Character(UnicodeScalar(UInt8(97 + (state >> 33) % 26)))
        })
    }

    private func flipByte(in path: String, at offset: Int) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[offset] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// Where `name`'s local header ends in a zip Python wrote (no extra field): its data starts there.
    private func dataOffset(of name: String, in path: String) throws -> Int {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let range = try #require(bytes.firstRange(of: Data(name.utf8)))
        return range.upperBound
    }

    private func cut(_ path: String, to fraction: Double) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: URL(fileURLWithPath: path))
    }

    private let files = [
        ("Blacklist.jsonl", #"{"objectId":"a1"}"# + "\n"),
        ("export/", ""),
        ("export/Settings.json", #"[{"objectId":"s1"}]"#),
        ("export/deep/Comment.0.jsonl", String(repeating: #"{"objectId":"c","text":"hello"}"# + "\n", count: 200)),
    ]

    @Test func aZipsStoredAndDeflatedEntriesAreReadInTheirFolders() async throws {
        let path = TestServer.temporaryDirectory() + "/export.zip"
        try await PythonScript.zip(path, files, stored: ["export/Settings.json"])
        let zip = try archive(path)
        let check = try zip.check()
        #expect(check.problem == nil)
        #expect(check.entries.map(\.path) == ["Blacklist.jsonl", "export/Settings.json", "export/deep/Comment.0.jsonl"])
        #expect(check.entries.allSatisfy { $0.damage == nil })
        for entry in check.entries.reversed() {
            #expect(try text(zip.open(entry)) == files.first { $0.0 == entry.path }?.1)
        }
    }

    @Test func aZipWrittenWithDataDescriptorsIsRead() async throws {
        let path = TestServer.temporaryDirectory() + "/streamed.zip"
        try await PythonScript.zip(path, files, unseekable: true)
        // Python sets the data-descriptor flag (bit 3) when it cannot go back to fill the sizes in.
        let flags = try Data(contentsOf: URL(fileURLWithPath: path))[6]
        try #require(flags & 0x08 != 0)
        let zip = try archive(path)
        let check = try zip.check()
        #expect(check.entries.count == 3 && check.entries.allSatisfy { $0.damage == nil })
        #expect(try text(zip.open(check.entries[2])) == files[3].1)
    }

    @Test func aZip64IsRead() throws {
        let path = TestServer.temporaryDirectory() + "/zip64.zip"
        let content = Data(#"{"objectId":"z1"}"#.utf8)
        try Zip64.single(name: "Big.jsonl", content: content).write(to: URL(fileURLWithPath: path))
        let zip = try archive(path)
        let check = try zip.check()
        #expect(check.entries.map(\.path) == ["Big.jsonl"])
        #expect(check.entries.first?.damage == nil)
        #expect(try text(zip.open(check.entries[0])) == #"{"objectId":"z1"}"#)
    }

    @Test func aDamagedZipEntryIsFoundAndTheOthersRead() async throws {
        let path = TestServer.temporaryDirectory() + "/damaged.zip"
        let entries = [("A.jsonl", noise(3000, seed: 1)), ("Stored.jsonl", noise(3000, seed: 2)), ("Deflated.jsonl", noise(3000, seed: 3)), ("Z.jsonl", "{}")]
        try await PythonScript.zip(path, entries, stored: ["Stored.jsonl"])
        try flipByte(in: path, at: try dataOffset(of: "Stored.jsonl", in: path) + 1000)
        try flipByte(in: path, at: try dataOffset(of: "Deflated.jsonl", in: path) + 1000)
        let zip = try archive(path)
        let check = try zip.check()
        #expect(check.entries.map(\.damage?.isEmpty) == [nil, false, false, nil])
        #expect(check.entries[1].damage == "damaged: its CRC-32 does not match its header's")
        #expect(try text(zip.open(check.entries[0])) == entries[0].1)
        #expect(try text(zip.open(check.entries[3])) == "{}")
    }

    /// Its central directory lost, a zip is read from its start: the entries before the cut
    /// whole, the one cut reported, with or without data descriptors.
    @Test(arguments: [false, true]) func aZipCutShortKeepsTheEntriesBeforeTheCut(unseekable: Bool) async throws {
        let path = TestServer.temporaryDirectory() + "/cut.zip"
        let entries = [("A.jsonl", "{}\n"), ("B.jsonl", noise(2000, seed: 4)), ("C.jsonl", noise(200_000, seed: 5))]
        try await PythonScript.zip(path, entries, unseekable: unseekable)
        try cut(path, to: 0.5)
        let zip = try archive(path)
        let check = try zip.check()
        #expect(check.entries.map(\.path) == (unseekable ? ["A.jsonl", "B.jsonl"] : ["A.jsonl", "B.jsonl", "C.jsonl"]))
        #expect(check.entries.prefix(2).allSatisfy { $0.damage == nil })
        #expect(check.entries.dropFirst(2).allSatisfy { $0.damage?.hasPrefix("the file ends") == true })
        #expect(check.problem?.contains("its central directory is missing") == true, "\(check.problem ?? "")")
        #expect(try text(zip.open(check.entries[1])) == entries[1].1)

        // Cut inside its first header: nothing to read.
        try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20).write(to: URL(fileURLWithPath: path))
        #expect(throws: ArchiveError.self) { try Archives.open(path: path) }
    }

    @Test(arguments: [false, true]) func aTarGzsEntriesAreReadWithTheirLongNames(gnu: Bool) async throws {
        let path = TestServer.temporaryDirectory() + "/export.tar.gz"
        // One that splits into ustar's prefix and name, one that does not (a pax or GNU long name).
        let deep = String(repeating: "folder/", count: 20) + "Comment.0.jsonl"
        let long = "export/" + String(repeating: "x", count: 120) + ".jsonl"
        let entries = files + [(deep, #"{"objectId":"deep"}"#), (long, #"{"objectId":"long"}"#)]
        try await PythonScript.tarGz(path, entries, gnu: gnu)
        let tar = try archive(path)
        let check = try tar.check()
        #expect(check.problem == nil)
        #expect(check.entries.map(\.path) == ["Blacklist.jsonl", "export/Settings.json", "export/deep/Comment.0.jsonl", deep, long])
        #expect(check.entries.map(\.size) == [18, 19, 6400, 19, 19])
        // In order, then back to the start (the archive is read again from its beginning).
        for entry in check.entries + [check.entries[0]] {
            #expect(try text(tar.open(entry)) == entries.first { $0.0 == entry.path }?.1)
        }
    }

    @Test func aTarGzCutShortKeepsTheEntriesBeforeTheCut() async throws {
        let path = TestServer.temporaryDirectory() + "/cut.tar.gz"
        try await PythonScript.tarGz(path, [("A.jsonl", "{}\n"), ("B.jsonl", noise(2000, seed: 4)), ("C.jsonl", noise(200_000, seed: 5))])
        try cut(path, to: 0.5)
        let tar = try archive(path)
        let check = try tar.check()
        #expect(check.entries.map(\.path) == ["A.jsonl", "B.jsonl", "C.jsonl"])
        #expect(check.entries.map { $0.damage == nil } == [true, true, false])
        #expect(check.entries[2].damage == "the compressed data ends early (cut short?)")
        #expect(check.problem?.hasPrefix("nothing after C.jsonl can be read") == true)
        #expect(try text(tar.open(check.entries[1])) == noise(2000, seed: 4))
    }

    @Test func aTarGzWhoseChecksumFailsTrustsNoEntry() async throws {
        let path = TestServer.temporaryDirectory() + "/flipped.tar.gz"
        try await PythonScript.tarGz(path, [("A.jsonl", "{}\n"), ("B.jsonl", "{}\n")])
        // The gzip trailer: the CRC-32 of all that came before, then the length.
        let size = try Data(contentsOf: URL(fileURLWithPath: path)).count
        try flipByte(in: path, at: size - 8)
        // zlib finds it as soon as it reaches the trailer: at once in an archive this small,
        // after the entries otherwise, which are then all marked.
        let check = try archive(path).check()
        #expect(check.problem == "the archive's checksum does not match: it is damaged somewhere")
        #expect(check.entries.allSatisfy { $0.damage == check.problem })
    }

    @Test func aFileThatIsNoArchiveIsLeftToBeReadAsItIs() throws {
        let path = TestServer.temporaryDirectory() + "/Blacklist.jsonl"
        try #"{"objectId":"a"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try Archives.open(path: path) == nil)
    }

    /// 100 MB of rows in one entry, read a megabyte at a time at most, with its CRC checked.
    @Test func aLargeEntryIsReadInChunks() async throws {
        let folder = TestServer.temporaryDirectory()
        try await PythonScript.run("""
            import sys, tarfile, zipfile
            line = b'{"objectId":"%08d","text":"' + b"x" * 70 + b'"}\\n'
            count = 1_000_000
            class Rows:
                def __init__(self): self.n = 0; self.pending = b""
                def read(self, size=-1):
                    while len(self.pending) < size and self.n < count:
                        self.pending += b"".join(line.replace(b"%08d", b"%08d" % i) for i in range(self.n, min(count, self.n + 1000)))
                        self.n = min(count, self.n + 1000)
                    out, self.pending = self.pending[:size], self.pending[size:]
                    return out
            size = len(line.replace(b"%08d", b"00000000")) * count
            with zipfile.ZipFile(sys.argv[1] + "/big.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
                with z.open("Big.0.jsonl", "w", force_zip64=True) as entry:
                    rows = Rows()
                    while chunk := rows.read(1 << 20): entry.write(chunk)
            with tarfile.open(sys.argv[1] + "/big.tar.gz", "w:gz", compresslevel=1) as t:
                info = tarfile.TarInfo("Big.0.jsonl"); info.size = size
                t.addfile(info, Rows())
            """, [folder])
        for name in ["big.zip", "big.tar.gz"] {
            let archive = try archive(folder + "/" + name)
            let check = try archive.check()
            #expect(check.entries.map(\.size) == [104_000_000])
            #expect(check.entries.first?.damage == nil)
            let source = try archive.open(check.entries[0])
            var total = 0
            var largest = 0
            while true {
                let chunk = try source.read(upTo: 1 << 20)
                if chunk.isEmpty { break }
                total += chunk.count
                largest = max(largest, chunk.count)
            }
            #expect(total == 104_000_000)
            #expect(largest <= 1 << 20)
        }
    }
}

/// A zip whose one stored entry has its sizes and offset in zip64 fields (the central
/// directory's marked 0xFFFFFFFF), found through a zip64 end record, as zips past 4 GB are.
private enum Zip64 {
    static func single(name: String, content: Data) -> Data {
        var crc = CRCTable()
        let sum = crc.checksum(content)
        var zip = Data()
        zip += le32(0x0403_4B50) + le16(45) + le16(0) + le16(0) + le16(0) + le16(0) + le32(sum)
        zip += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(UInt16(name.utf8.count)) + le16(20)
        zip += Data(name.utf8) + le16(1) + le16(16) + le64(UInt64(content.count)) + le64(UInt64(content.count))
        zip += content
        let directoryOffset = UInt64(zip.count)
        var directory = le32(0x0201_4B50) + le16(45) + le16(45) + le16(0) + le16(0) + le16(0) + le16(0) + le32(sum)
        directory += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(UInt16(name.utf8.count)) + le16(28) + le16(0) + le16(0) + le16(0) + le32(0)
        directory += le32(0xFFFF_FFFF) + Data(name.utf8)
        directory += le16(1) + le16(24) + le64(UInt64(content.count)) + le64(UInt64(content.count)) + le64(0)
        zip += directory
        let endOffset = UInt64(zip.count)
        zip += le32(0x0606_4B50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0) + le64(1) + le64(1)
        zip += le64(UInt64(directory.count)) + le64(directoryOffset)
        zip += le32(0x0706_4B50) + le32(0) + le64(endOffset) + le32(1)
        zip += le32(0x0605_4B50) + le16(0) + le16(0) + le16(0xFFFF) + le16(0xFFFF) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(0)
        return zip
    }

    private static func le16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    private static func le32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    private static func le64(_ value: UInt64) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }

    /// CRC-32 (IEEE), computed here rather than by the reader's own zlib call.
    private struct CRCTable {
        let table: [UInt32] = (0..<256).map { index in
            (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }

        mutating func checksum(_ data: Data) -> UInt32 {
            ~data.reduce(~UInt32(0)) { table[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
        }
    }
}

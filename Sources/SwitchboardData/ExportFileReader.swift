import Foundation
import SwitchboardJSON

/// The rows of a file LeanCloud exported or that its import took: JSON Lines (the console's
/// `.jsonl` export, one object a line, read a line at a time so a large class never sits in
/// memory whole), a JSON array of objects, or `{"results": [...]}` (a REST query's answer).
/// A row that is not a JSON object is handed back as unreadable with where it was and why,
/// and reading goes on.
public struct ExportFileReader {
    public enum Item: Equatable, Sendable {
        case row(JSONValue, place: String)
        case unreadable(place: String, reason: String)
    }

    private var lines: LineReader?
    private var items: IndexingIterator<[JSONValue]>?
    private var index = 0
    private let path: String

    /// Opens `path`, telling its form from its start. With `byteLimit`, JSON lines are read
    /// only up to it (an export whose run did not finish: what follows its last recorded
    /// position may be cut short, and is written again when the run goes on).
    public init(path: String, byteLimit: Int? = nil) throws {
        self.path = path
        var reader = try LineReader(path: path, byteLimit: byteLimit)
        guard let first = try reader.peekFirstNonBlank() else { return }
        let firstLine = try reader.firstNonBlankLine()
        if first == UInt8(ascii: "[") || !Self.isWholeObjectLine(firstLine) {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let whole: JSONValue
            do {
                whole = try JSONValue(parsing: text)
            } catch {
                throw ExportFileError(path: path, reason: "neither JSON lines nor one JSON document: \(error)")
            }
            guard let rows = whole.arrayValue ?? whole["results"]?.arrayValue else {
                throw ExportFileError(path: path, reason: "a JSON document here must be an array of rows or {\"results\": [...]}")
            }
            items = rows.makeIterator()
        } else {
            lines = reader
        }
    }

    /// The next row, or nil at the end.
    public mutating func next() throws -> Item? {
        if var iterator = items {
            defer { items = iterator }
            guard let row = iterator.next() else { return nil }
            index += 1
            return Self.item(row, place: "\(path): item \(index)")
        }
        while var reader = lines {
            defer { lines = reader }
            guard let (number, line) = try reader.nextLine() else { return nil }
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            guard let row = try? JSONValue(parsing: line) else {
                return .unreadable(place: "\(path):\(number)", reason: "not valid JSON")
            }
            return Self.item(row, place: "\(path):\(number)")
        }
        return nil
    }

    private static func item(_ row: JSONValue, place: String) -> Item {
        row.objectValue == nil ? .unreadable(place: place, reason: "a row must be a JSON object") : .row(row, place: place)
    }

    /// A first line that holds a whole object makes the file JSON lines, unless that object
    /// is a query's answer (`{"results": [...]}` on one line).
    private static func isWholeObjectLine(_ line: String?) -> Bool {
        guard let line, let object = (try? JSONValue(parsing: line))?.objectValue else { return false }
        return !(object.count == 1 && object["results"]?.arrayValue != nil)
    }
}

/// A file that cannot be read as rows at all.
public struct ExportFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String

    public var description: String { "\(path): \(reason)" }
}

/// A file's lines, read in blocks.
private struct LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    /// Where the unread part of `buffer` starts.
    private var position = 0
    private var atEnd = false
    private var number = 0

    /// Bytes left to read, when limited.
    private var unread: Int?

    init(path: String, byteLimit: Int?) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ExportFileError(path: path, reason: "cannot be opened") }
        self.handle = handle
        unread = byteLimit
    }

    /// The first byte that is not blank, without consuming anything.
    mutating func peekFirstNonBlank() throws -> UInt8? {
        while true {
            if let byte = buffer.first(where: { !Self.isBlank($0) }) { return byte }
            guard try fill() else { return nil }
        }
    }

    /// The first line with something on it, without consuming anything.
    mutating func firstNonBlankLine() throws -> String? {
        while true {
            var start = buffer.startIndex
            while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<newline]
                if line.contains(where: { !Self.isBlank($0) }) { return String(decoding: line, as: UTF8.self) }
                start = buffer.index(after: newline)
            }
            guard try fill() else {
                let rest = buffer[start...]
                return rest.contains(where: { !Self.isBlank($0) }) ? String(decoding: rest, as: UTF8.self) : nil
            }
        }
    }

    /// The next line and its number (from 1), or nil at the end.
    mutating func nextLine() throws -> (Int, String)? {
        while true {
            if let newline = Self.newline(in: buffer, from: position) {
                let line = Self.text(of: buffer, from: position, to: newline)
                position = newline + 1
                number += 1
                return (number, line)
            }
            guard try fill() else {
                guard position < buffer.endIndex else { return nil }
                let line = String(decoding: buffer[position...], as: UTF8.self)
                position = buffer.endIndex
                number += 1
                return (number, line)
            }
        }
    }

    /// Where the first newline at or past `start` is: memchr over the bytes, where Data's
    /// search by element checks exclusive access at every byte (a tenth of an import's time).
    private static func newline(in buffer: Data, from start: Int) -> Int? {
        buffer.withUnsafeBytes { bytes in
            guard start < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    private static func text(of buffer: Data, from start: Int, to end: Int) -> String {
        buffer.withUnsafeBytes { bytes in String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
    }

    private mutating func fill() throws -> Bool {
        guard !atEnd else { return false }
        let block = try handle.read(upToCount: min(1 << 20, unread ?? .max)) ?? Data()
        if block.isEmpty { atEnd = true; return false }
        unread = unread.map { $0 - block.count }
        // What was read is dropped before a block is added, so the buffer holds one line and a block.
        buffer = Data(buffer[position...]) + block
        position = 0
        return true
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}

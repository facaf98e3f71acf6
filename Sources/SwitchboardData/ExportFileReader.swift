import Foundation
import SwitchboardArchives
import SwitchboardJSON

/// The rows of a file LeanCloud exported or that its import took: JSON Lines (the console's
/// `.jsonl` export, one object a line, read a line at a time so a large class never sits in
/// memory whole), a JSON array of objects, or `{"results": [...]}` (a REST query's answer).
/// A row that is not a JSON object is handed back as unreadable with where it was and why,
/// and reading goes on. The file may be a loose one or an entry of an archive: it is read
/// from a byte source, and named in what is reported as it was given
/// (`export.tar.gz/Blacklist.0.jsonl:12`).
public struct ExportFileReader {
    public enum Item: Equatable, Sendable {
        case row(JSONValue, place: String)
        case unreadable(place: String, reason: String)
    }

    private var lines: LineReader?
    private var items: IndexingIterator<[JSONValue]>?
    private var index = 0
    private let name: String

    /// Opens the file at `path`, telling its form from its start. With `byteLimit`, it is
    /// read only up to it (an export whose run did not finish: what follows its last
    /// recorded position may be cut short, and is written again when the run goes on).
    public init(path: String, byteLimit: Int? = nil) throws {
        let file: FileByteSource
        do {
            file = try FileByteSource(path: path)
        } catch {
            throw ExportFileError(path: path, reason: "\(error)")
        }
        try self.init(source: file, name: path, byteLimit: byteLimit)
    }

    /// Reads `source`, telling its form from its start; `name` is how places in it are given;
    /// with `byteLimit`, only that many of its bytes.
    public init(source: any ByteSource, name: String, byteLimit: Int? = nil) throws {
        self.name = name
        var reader = LineReader(byteLimit.map { ByteLimitedSource(source, limit: $0) } ?? source)
        var first = try reader.peekNonBlankLine()
        // LeanCloud's data export starts each file with a line of its own,
        // `#filetype:JSON-streaming {"type":"Class","class":"Blacklist"}`: the rows follow it.
        if first?.drop(while: { $0 == " " || $0 == "\t" }).first == "#" {
            while let (_, line) = try reader.nextLine(), line.allSatisfy(\.isWhitespace) {}
            first = try reader.peekNonBlankLine()
        }
        guard let first else { return }
        if first.drop(while: \.isWhitespace).first == "[" || !Self.isWholeObjectLine(first) {
            let text = String(decoding: try reader.rest(), as: UTF8.self)
            let whole: JSONValue
            do {
                whole = try JSONValue(parsing: text)
            } catch {
                throw ExportFileError(path: name, reason: "neither JSON lines nor one JSON document: \(error)")
            }
            guard let rows = whole.arrayValue ?? whole["results"]?.arrayValue else {
                throw ExportFileError(path: name, reason: "a JSON document here must be an array of rows or {\"results\": [...]}")
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
            return Self.item(row, place: "\(name): item \(index)")
        }
        while var reader = lines {
            defer { lines = reader }
            guard let (number, line) = try reader.nextLine() else { return nil }
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            guard let row = try? JSONValue(parsing: line) else {
                return .unreadable(place: "\(name):\(number)", reason: "not valid JSON")
            }
            return Self.item(row, place: "\(name):\(number)")
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

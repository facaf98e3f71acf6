import Foundation
import GRDB
import PostgresNIO

/// A table row as `RowMapping` reads it, from SQLite or PostgreSQL: the same columns, read
/// by name, nil when null.
protocol StoredRow {
    func string(_ column: String) -> String?
    func int64(_ column: String) -> Int64?
    func bool(_ column: String) -> Bool?
    func data(_ column: String) -> Data?
}

extension Row: StoredRow {
    func string(_ column: String) -> String? { self[column] }
    func int64(_ column: String) -> Int64? { self[column] }
    func bool(_ column: String) -> Bool? { self[column] }
    func data(_ column: String) -> Data? { self[column] }
}

extension PostgresRandomAccessRow: StoredRow {
    func string(_ column: String) -> String? { try? self[column].decode(String?.self) }
    func int64(_ column: String) -> Int64? { try? self[column].decode(Int64?.self) }
    func bool(_ column: String) -> Bool? { try? self[column].decode(Bool?.self) }
    func data(_ column: String) -> Data? { (try? self[column].decode(ByteBuffer?.self))?.map { Data($0.readableBytesView) } }
}

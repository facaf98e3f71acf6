import Foundation

/// Dates as LeanCloud writes them: ISO 8601 with milliseconds, in UTC.
public enum ISODate {
    public static func string(milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            .formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// The `{"__type": "Date", "iso": ...}` object LeanCloud uses inside JSON documents.
    public static func object(milliseconds: Int64) -> JSONValue {
        .object(["__type": .string("Date"), "iso": .string(string(milliseconds: milliseconds))])
    }
}

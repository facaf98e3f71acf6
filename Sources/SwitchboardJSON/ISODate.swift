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

    /// Milliseconds since 1970 of an ISO 8601 date with or without fractional seconds
    /// (`2015-06-29T01:39:35.931Z`), or of a `{"__type": "Date", "iso": ...}` object; nil
    /// for anything else.
    public static func milliseconds(from value: JSONValue) -> Int64? {
        guard let text = value.stringValue ?? (value["__type"]?.stringValue == "Date" ? value["iso"]?.stringValue : nil) else { return nil }
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

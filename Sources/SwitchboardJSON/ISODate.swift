import Foundation

/// Dates as LeanCloud writes them: ISO 8601 with milliseconds, in UTC.
public enum ISODate {
    public static func string(milliseconds: Int64) -> String {
        // In whole numbers: seconds as a Double printed …05.678 as …05.677 half the time.
        var (days, time) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        if time < 0 {
            days -= 1
            time += 86_400_000
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T" + digits(time / 3_600_000, 2) + ":"
            + digits(time / 60000 % 60, 2) + ":" + digits(time / 1000 % 60, 2) + "." + digits(time % 1000, 3) + "Z"
    }

    /// The proleptic Gregorian year, month and day of a day counted from 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func digits(_ number: Int64, _ width: Int) -> String {
        let text = String(number)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
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

import Foundation

/// HTTP's `Retry-After` (RFC 9110, section 10.2.3): how long a service asks to be left alone,
/// as whole seconds (`120`) or as the HTTP date to wait until, which a recipient must read in
/// all three of its forms: `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94
/// 08:49:37 GMT` (RFC 850) and `Sun Nov  6 08:49:37 1994` (asctime). Push providers hand what
/// it says to `DevicePushAnswer.later(_:retryAfter:)`.
public enum RetryAfterHeader {
    /// The wait `value` asks for, counted from `now`; zero for a date already past; nil when
    /// there is no header or it is neither form (the caller's own backoff applies then).
    public static func duration(_ value: String?, now: Date = Date()) -> Duration? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Int64(text).map { .seconds($0) }
        }
        guard let date = httpDate(text) else { return nil }
        return .milliseconds(max(Int64((date.timeIntervalSince(now) * 1000).rounded(.up)), 0))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The three forms share their parts, in two orders: the day comes before the year in
    /// each, the month is named, the time has colons, and the zone (when given) is GMT.
    private static func httpDate(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map { $0.lowercased() }
        guard parts.count == 5 || (parts.count == 6 && parts.last == "gmt") else { return nil }
        guard let month = parts.lazy.compactMap({ months.firstIndex(of: $0) }).first.map({ $0 + 1 }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        let time = parts.first { $0.contains(":") }?.split(separator: ":").compactMap { Int($0) } ?? []
        guard numbers.count == 2, time.count == 3 else { return nil }
        // RFC 850's two-digit year: the century that puts it nearest the past (RFC 9110 asks
        // for "not more than 50 years in the future").
        let year = numbers[1] >= 100 ? numbers[1] : numbers[1] + (numbers[1] < 70 ? 2000 : 1900)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let components = DateComponents(year: year, month: month, day: numbers[0], hour: time[0], minute: time[1], second: time[2])
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }
}

import SwitchboardJSON
import Testing

/// Dates as LeanCloud writes them (`createdAt`, `{"__type": "Date"}`): every millisecond
/// comes back as the one stored.
@Suite struct ISODateTests {
    @Test func eachMillisecondIsWrittenAsItself() {
        let second: Int64 = 1_767_323_045_000
        for milliseconds in second..<second + 1000 {
            let text = ISODate.string(milliseconds: milliseconds)
            #expect(text.dropLast().hasSuffix(String(format: ".%03d", Int(milliseconds % 1000))), "\(milliseconds): \(text)")
            #expect(ISODate.milliseconds(from: .string(text)) == milliseconds, "\(text)")
        }
    }

    @Test func calendarDatesAreLeanCloudsForm() {
        let dates: [(Int64, String)] = [
            (0, "1970-01-01T00:00:00.000Z"), (-1, "1969-12-31T23:59:59.999Z"), (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (1_767_323_045_678, "2026-01-02T03:04:05.678Z"), (4_107_542_399_999, "2100-02-28T23:59:59.999Z"),
            (253_402_300_799_999, "9999-12-31T23:59:59.999Z"), (-11_676_096_000_000, "1600-01-01T00:00:00.000Z"),
        ]
        for (milliseconds, text) in dates {
            #expect(ISODate.string(milliseconds: milliseconds) == text)
            #expect(ISODate.milliseconds(from: .string(text)) == milliseconds, "\(text)")
        }
    }
}

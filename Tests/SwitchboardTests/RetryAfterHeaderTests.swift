import Foundation
import SwitchboardServer
import Testing

/// `Retry-After` as RFC 9110 writes it: seconds, or an HTTP date in any of its three forms.
@Suite(.storeBlind) struct RetryAfterHeaderTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example.
    private static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test func secondsAndTheThreeDateFormsAreRead() {
        let now = Self.example.addingTimeInterval(-90)
        #expect(RetryAfterHeader.duration("120", now: now) == .seconds(120))
        #expect(RetryAfterHeader.duration(" 0 ", now: now) == .zero)
        for form in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(RetryAfterHeader.duration(form, now: now) == .seconds(90), "\(form)")
        }
        // A date gone by asks for no wait at all.
        #expect(RetryAfterHeader.duration("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.example.addingTimeInterval(5)) == .zero)
    }

    @Test func anythingElseIsNoAnswer() {
        for value in [nil, "", "-5", "1.5", "soon", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 31 Feb 1994 08:49:37 GMT", "99999999999999999999999"] {
            #expect(RetryAfterHeader.duration(value, now: Self.example) == nil, "\(value ?? "nil")")
        }
    }
}

import ForkcastCore
import Foundation
import PropertyBased
import Testing

@Suite("Instants")
struct InstantTests {
    @Test func readsTheFormsClientsSend() {
        let expected = ISO8601DateFormatter().date(from: "2026-11-22T07:30:00Z")!
        for text in ["2026-11-22T08:30:00+01:00", "2026-11-22T07:30:00Z", "2026-11-22T07:30Z", "2026-11-22T02:30:00-0500",
                     "2026-11-22T08:30:00+01", "2026-11-22 07:30:00z"] {
            #expect(Instant.parse(text) == expected, "\(text)")
        }
        #expect(Instant.parse("2026-11-22T07:30:00.250Z") == expected.addingTimeInterval(0.25))
    }

    @Test func refusesWhatLenientParsersRollOver() {
        for text in ["2026-11-22T25:00:00Z", "2026-11-22T23:60:00Z", "2026-11-22T23:59:60Z", "2026-02-30T12:00:00Z", "2026-13-01T00:00:00Z",
                     "2026-11-22T12:00:00", "2026-11-22", "", "2026-11-22T12:00:00+24:00", "2026-11-22T12:00:00+05:60", "2026-11-22T12:00:00Zjunk",
                     "9999-12-31T23:59:59+14:00", "0001-01-01T00:00:00Z", "２０２６-11-22T12:00:00Z", "2026-11-22T1:00:00Z"] {
            #expect(Instant.parse(text) == nil, "\(text)")
        }
    }

    @Test func agreesWithFoundationOnEveryValidInstant() async {
        let formatter = ISO8601DateFormatter()
        await propertyCheck(count: 300, input: Gen.int(in: -2_000_000_000...4_000_000_000), Gen.int(in: -12...14)) { seconds, hours in
            formatter.timeZone = TimeZone(secondsFromGMT: hours * 3600)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = formatter.string(from: date)
            #expect(Instant.parse(text) == date, "\(text)")
        }
    }
}

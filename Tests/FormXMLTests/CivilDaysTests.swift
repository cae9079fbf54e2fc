import FormXML
import Foundation
import Testing

/// The one civil-day arithmetic (``CivilDays``), which the XPath evaluator's dates and the OData
/// client's `datetime` values both count by.
@Suite("Civil days")
struct CivilDaysTests {
    @Test("days since 1970 as a Gregorian calendar counts them, and back, across leap years and eras")
    func roundTrip() throws {
        #expect(CivilDays.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDays.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilDays.days(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilDays.date(days: 59) == (1970, 3, 1))
        // Against Foundation's Gregorian calendar, every 97th day from 1603 to 2370 (before 1582 Foundation
        // counts by the Julian calendar; this arithmetic is proleptic Gregorian, as XML Schema is).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for days in stride(from: -134_000, through: 146_097, by: 97) {
            let date = Date(timeIntervalSince1970: TimeInterval(days) * 86_400)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let civil = CivilDays.date(days: days)
            #expect(civil == (parts.year!, parts.month!, parts.day!), "\(days)")
            #expect(CivilDays.days(year: civil.year, month: civil.month, day: civil.day) == days)
        }
    }
}

import Foundation
import Testing

@testable import FormXML

/// The date and time functions: days since 1970-01-01 UTC (a date is its midnight UTC, a
/// dateTime the instant it names, no offset = the host's zone), leap days, dates before 1970,
/// offsets and the host's clock. The host's clock reads 2024-05-15T22:30:00Z; its zone is
/// Nairobi (+03:00, no daylight saving) unless a test picks another.
@Suite("XPath date functions")
struct XPathDateTests {
    private func fixture(zone: String = "Africa/Nairobi") throws -> XPathFixture {
        try XPathFixture(host: FixedHost(timeZone: TimeZone(identifier: zone)!))
    }

    private func string(_ expression: String, zone: String = "Africa/Nairobi") throws -> String {
        try fixture(zone: zone).string(expression)
    }

    private func number(_ expression: String, zone: String = "Africa/Nairobi") throws -> Double {
        try fixture(zone: zone).number(expression)
    }

    /// Whether two numbers of days agree to well under a millisecond.
    private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test("today() and now() read the host's clock in the host's zone")
    func clock() throws {
        #expect(try string("today()") == "2024-05-16")
        #expect(try string("today()", zone: "UTC") == "2024-05-15")
        #expect(try string("now()") == "2024-05-16T01:30:00.000+03:00")
        #expect(try string("now()", zone: "UTC") == "2024-05-15T22:30:00.000Z")
        #expect(try string("now()", zone: "America/New_York") == "2024-05-15T18:30:00.000-04:00")
        #expect(try string("now()", zone: "Asia/Kolkata") == "2024-05-16T04:00:00.000+05:30")
    }

    @Test("decimal-date-time() of dates: midnight UTC, leap days, before 1970")
    func decimalDates() throws {
        #expect(try number("decimal-date-time('1970-01-01')") == 0)
        #expect(try number("decimal-date-time('2024-02-29')") == 19_782)
        #expect(try number("decimal-date-time('2024-03-01') - decimal-date-time('2024-02-28')") == 2)
        #expect(try number("decimal-date-time('2023-03-01') - decimal-date-time('2023-02-28')") == 1)
        #expect(try number("decimal-date-time('1969-12-31')") == -1)
        #expect(try number("decimal-date-time('1900-03-01')") == -25_508)
        #expect(try number("decimal-date-time('2000-02-29')") == 11_016)
        #expect(try number("decimal-date-time('1900-02-29')").isNaN)
        #expect(try number("decimal-date-time('2023-02-29')").isNaN)
        #expect(try number("decimal-date-time('2024-13-01')").isNaN)
        #expect(try number("decimal-date-time('2024-5-1')").isNaN)
        // A date is the same number in every zone.
        #expect(try number("decimal-date-time('2024-05-15')", zone: "Pacific/Kiritimati") == 19_858)
        #expect(try number("decimal-date-time(/data/dob)") == 10_987)
    }

    @Test("decimal-date-time() of dateTimes: the instant, with or without offset")
    func decimalDateTimes() throws {
        #expect(try number("decimal-date-time('2024-05-15T10:30:00.000+03:00')") == 19_858.3125)
        #expect(try number("decimal-date-time('2024-05-15T07:30:00Z')") == 19_858.3125)
        #expect(try number("decimal-date-time('2024-05-15T04:30:00-0300')") == 19_858.3125)
        #expect(try number("decimal-date-time('2024-05-15T10:30:00+03')") == 19_858.3125)
        // No offset: the host's zone.
        #expect(try number("decimal-date-time('2024-05-15T10:30:00')") == 19_858.3125)
        #expect(try number("decimal-date-time('2024-05-15T10:30')", zone: "UTC") == 19_858.4375)
        // Summer time in Berlin is +02:00, winter +01:00.
        #expect(close(try number("decimal-date-time('2024-07-01T12:00:00')", zone: "Europe/Berlin"), 19_905 + 10 / 24))
        #expect(close(try number("decimal-date-time('2024-01-01T12:00:00')", zone: "Europe/Berlin"), 19_723 + 11 / 24))
        #expect(try number("decimal-date-time('1969-12-31T12:00:00Z')") == -0.5)
        #expect(close(try number("decimal-date-time('2024-05-15T00:00:00.5Z')"), 19_858 + 0.5 / 86_400))
        #expect(try number("decimal-date-time('2024-05-15T24:00:00Z')").isNaN)
        #expect(try number("decimal-date-time('2024-05-15T10:60:00Z')").isNaN)
        #expect(try number("decimal-date-time('2024-05-15T10:30:00+0x')").isNaN)
        #expect(try number("decimal-date-time('2024-05-15 10:30:00')").isNaN)
    }

    @Test("decimal-date-time() keeps numbers and empty values, refuses times and text")
    func decimalDateTimeOthers() throws {
        #expect(try number("decimal-date-time(19858.25)") == 19_858.25)
        #expect(try string("decimal-date-time('')") == "")
        #expect(try string("decimal-date-time(/data/empty)") == "")
        #expect(try number("decimal-date-time('10:30:00')").isNaN)
        #expect(try number("decimal-date-time('soon')").isNaN)
        #expect(try number("decimal-date-time(true())").isNaN)
        #expect(try number("decimal-date-time(1e12)").isNaN)
        // Dates compare and subtract through it.
        let fixture = try fixture()
        #expect(try fixture.boolean("decimal-date-time(.) <= decimal-date-time(today())", at: ["data", "dob"]))
        #expect(try fixture.number("decimal-date-time(today()) - decimal-date-time(/data/dob)") == 8872)
    }

    @Test("decimal-time() is the fraction of the day in the host's zone")
    func decimalTime() throws {
        #expect(try number("decimal-time('12:00:00')") == 0.5)
        #expect(try number("decimal-time('18:00')") == 0.75)
        #expect(try number("decimal-time('06:00:00.000+03:00')") == 0.25)
        #expect(try number("decimal-time('06:00:00.000+03:00')", zone: "UTC") == 0.125)
        #expect(try number("decimal-time('01:00:00Z')", zone: "America/New_York") == 21 / 24)
        #expect(try number("decimal-time('2024-05-15T18:00:00')") == 0.75)
        #expect(try number("decimal-time('2024-05-15T18:00:00Z')") == 0.875)
        #expect(try number("decimal-time('2024-05-15')") == 0)
        #expect(try number("decimal-time(19858.25)") == 0.25)
        #expect(try number("decimal-time(-0.25)") == 0.75)
        #expect(try string("decimal-time('')") == "")
        #expect(try number("decimal-time('25:00:00')").isNaN)
    }

    @Test("date() gives YYYY-MM-DD of a date, a dateTime or a number of days")
    func date() throws {
        #expect(try string("date('2024-02-29')") == "2024-02-29")
        #expect(try string("date(19782)") == "2024-02-29")
        #expect(try string("date(19782.99)") == "2024-02-29")
        #expect(try string("date(0)") == "1970-01-01")
        #expect(try string("date(-1)") == "1969-12-31")
        #expect(try string("date(-0.5)") == "1969-12-31")
        #expect(try string("date(-25508)") == "1900-03-01")
        #expect(try string("date(decimal-date-time(/data/dob) + 30)") == "2000-03-01")
        #expect(try string("date('2024-05-15T23:30:00Z')") == "2024-05-16")
        #expect(try string("date('2024-05-15T23:30:00Z')", zone: "UTC") == "2024-05-15")
        #expect(try string("date('2024-05-15T23:30:00')") == "2024-05-15")
        #expect(try string("date('')") == "")
        #expect(try string("date('x')") == "")
        #expect(try string("date(number('x'))") == "")
        #expect(try string("date('12:00:00')") == "")
    }

    @Test("date-time() gives a dateTime with an offset")
    func dateTime() throws {
        #expect(try string("date-time(0)") == "1970-01-01T03:00:00.000+03:00")
        #expect(try string("date-time(0)", zone: "UTC") == "1970-01-01T00:00:00.000Z")
        #expect(try string("date-time(19858.3125)") == "2024-05-15T10:30:00.000+03:00")
        #expect(try string("date-time(-0.5)", zone: "UTC") == "1969-12-31T12:00:00.000Z")
        #expect(try string("date-time('2024-05-15T10:30:00.25-05:00')") == "2024-05-15T10:30:00.250-05:00")
        #expect(try string("date-time('2024-05-15T10:30')") == "2024-05-15T10:30:00.000+03:00")
        #expect(try string("date-time('2024-02-29')") == "2024-02-29T00:00:00.000Z")
        #expect(try string("date-time('')") == "")
        #expect(try string("date-time('now')") == "")
        #expect(try number("decimal-date-time(date-time(19858.3125))") == 19_858.3125)
    }

    @Test("format-date() and format-date-time() with every identifier, in English")
    func format() throws {
        #expect(
            try string("format-date('2024-02-29', '%Y/%y/%m/%n/%b/%d/%e/%a')") == "2024/24/02/2/Feb/29/29/Thu")
        #expect(try string("format-date('2024-11-05', '%e %b %Y (%a)')") == "5 Nov 2024 (Tue)")
        #expect(try string("format-date('1969-12-31', '%a %d')") == "Wed 31")
        #expect(try string("format-date('0999-01-01', '%Y %y')") == "0999 99")
        #expect(
            try string("format-date-time('2024-05-15T07:05:09.042+03:00', '%H %h %M %S %3')") == "07 7 05 09 042")
        #expect(
            try string("format-date-time('2024-05-15T07:05:09.042+03:00', '%H %h %M %S %3')", zone: "UTC")
                == "04 4 05 09 042")
        #expect(try string("format-date-time('2024-05-15T23:30:00', '%d %H:%M')") == "15 23:30")
        #expect(try string("format-date-time(now(), '%Y-%m-%d %H:%M')") == "2024-05-16 01:30")
        #expect(try string("format-date('2024-05-15', '100%% on %d, %Q, %')") == "100% on 15, %Q, %")
        #expect(try string("format-date('2024-05-15', '%H:%M')") == "00:00")
    }

    @Test("format-date() reads a number as its UTC date, format-date-time() in the host's zone")
    func formatNumbers() throws {
        #expect(
            try string("format-date(decimal-date-time('2024-05-15'), '%Y-%m-%d')", zone: "America/New_York")
                == "2024-05-15")
        #expect(try string("format-date(19858.9, '%d')", zone: "Africa/Nairobi") == "15")
        #expect(try string("format-date-time(19858.9, '%d %H')", zone: "Africa/Nairobi") == "16 00")
        #expect(try string("format-date-time(0, '%Y-%m-%d %H:%M')", zone: "UTC") == "1970-01-01 00:00")
    }

    @Test("format-date() of nothing or of what is not a date is \"\"")
    func formatEmpty() throws {
        #expect(try string("format-date('', '%Y')") == "")
        #expect(try string("format-date(/data/empty, '%Y')") == "")
        #expect(try string("format-date('31/01/2000', '%Y')") == "")
        #expect(try string("format-date(number('x'), '%Y')") == "")
        #expect(try string("format-date-time('10:30:00', '%H')") == "")
    }

    @Test("dates read from text: blanks around them, fractions of a second, offsets")
    func reading() {
        #expect(XPathTemporal(" 2024-05-15\n") == .date(XPathTemporal.Day(year: 2024, month: 5, day: 15)!))
        #expect(XPathTemporal("2024-05-15T10:30:00.5+05:30") != nil)
        guard case .time(let seconds, 0) = XPathTemporal("10:30:00.123Z") else {
            Issue.record("not a UTC time")
            return
        }
        #expect(close(seconds, 37_800.123))
        #expect(XPathTemporal("10:30:00.") == nil)
        #expect(XPathTemporal("2024-05-15T") == nil)
        #expect(XPathTemporal("2024-05-15T10:30:00+15:00") == nil)
        #expect(XPathTemporal("") == nil)
        for days in [-800_000, -25_508, -1, 0, 1, 10_987, 19_782, 2_932_896] {
            #expect(XPathTemporal.Day(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(XPathTemporal.Day(daysSinceEpoch: 2_932_896).text == "9999-12-31")
    }
}

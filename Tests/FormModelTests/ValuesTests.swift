import Foundation
import Testing

@testable import FormModel

@Suite("Values")
struct ValuesTests {
    @Test("a leap day exists only in leap years")
    func leapDay() {
        #expect(LocalDate("2024-02-29") == LocalDate(year: 2024, month: 2, day: 29))
        #expect(LocalDate("2023-02-29") == nil)
        #expect(LocalDate("2000-02-29") != nil)
        #expect(LocalDate("1900-02-29") == nil)
    }

    @Test(
        "dates must be YYYY-MM-DD and exist",
        arguments: [
            "2026-13-01", "2026-04-31", "2026-1-01", "26-01-01", "2026-01-01T00:00", "", "0000-01-01", "2026/01/01",
        ])
    func badDates(_ text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test("dates print as written and order by day")
    func dateOrder() throws {
        let a = try #require(LocalDate("2026-01-31"))
        let b = try #require(LocalDate("2026-02-01"))
        #expect(a < b)
        #expect(a.description == "2026-01-31")
    }

    @Test("times take hours and minutes, with optional seconds")
    func times() throws {
        #expect(LocalTime("14:30") == LocalTime(hour: 14, minute: 30))
        #expect(LocalTime("14:30:15")?.second == 15)
        #expect(try #require(LocalTime("09:05")).description == "09:05")
        for bad in ["24:00", "12:60", "1:30", "12:30:60", "12", "12:30:", "ab:cd"] {
            #expect(LocalTime(bad) == nil, "\(bad) should be refused")
        }
        #expect(try #require(LocalTime("23:59")) > #require(LocalTime("08:00")))
    }

    @Test("times and dateTimes as ODK tools send them keep their milliseconds and offset")
    func odkTimes() throws {
        let time = try #require(LocalTime("22:02:10.562+07:00"))
        #expect(time.wallClock == "22:02:10" && time.millisecond == 562 && time.offset == 420)
        #expect(time.description == "22:02:10.562+07:00")
        #expect(LocalTime("10:30:00Z")?.description == "10:30:00Z")
        #expect(LocalTime("10:30:00.5-0330")?.description == "10:30:00.500-03:30")
        for bad in ["10:30+07", "10:30:00.+07:00", "10:30.500", "10:30:00+15:00", "10:30:00+07:60"] {
            #expect(LocalTime(bad) == nil, "\(bad) should be refused")
        }
        let moment = try #require(LocalDateTime("2024-05-15T10:30:00.000+03:00"))
        #expect(moment.description == "2024-05-15T10:30:00+03:00" && moment.wallClock == "2024-05-15T10:30")
        #expect(LocalDateTime("2024-05-15T10:30:00.123Z")?.description == "2024-05-15T10:30:00.123Z")
        // Stored as sent, read back the same.
        let stored = try JSONEncoder().encode(FieldValue.datetime(moment))
        #expect(String(decoding: stored, as: UTF8.self) == #""2024-05-15T10:30:00+03:00""#)
    }

    @Test("datetimes join a date and a time with T")
    func datetimes() throws {
        let value = try #require(LocalDateTime("2026-11-21T14:30"))
        #expect(value.date == LocalDate(year: 2026, month: 11, day: 21))
        #expect(value.description == "2026-11-21T14:30")
        #expect(LocalDateTime("2026-11-21 14:30") == nil)
        #expect(LocalDateTime("2023-02-29T10:00") == nil)
        #expect(try #require(LocalDateTime("2026-11-21T23:00")) < #require(LocalDateTime("2026-11-22T01:00")))
    }

    @Test("ISO 8601 durations parse and order by length")
    func durations() throws {
        let ninety = try #require(ISODuration("PT1H30M"))
        #expect(ninety.hours == 1 && ninety.minutes == 30)
        #expect(ninety.totalSeconds == 5400)
        let twoDays = try #require(ISODuration("P2DT4H"))
        #expect(twoDays.totalSeconds == Decimal((2 * 24 + 4) * 3600))
        #expect(ninety < twoDays)
        #expect(ISODuration("PT15M")?.description == "PT15M")
        #expect(ISODuration("P1W")?.totalSeconds == Decimal(7 * 86400))
    }

    @Test("a duration of 18-digit parts has its length, and orders, without overflowing")
    func hugeDurations() throws {
        // Found by schemathesis: the length in Int seconds overflowed and stopped the server.
        let huge = try #require(ISODuration("P709748476921113MT34M"))
        #expect(huge.totalSeconds == Decimal(string: "1839668052179524896000")! + 34 * 60)
        #expect(try #require(ISODuration("P30D")) < huge)
        #expect(try #require(ISODuration("P999999999999999999Y")).totalSeconds > huge.totalSeconds)
    }

    @Test(
        "malformed durations are refused",
        arguments: ["", "P", "PT", "1H", "PT1H1H", "P1H", "PT-5M", "P1DT", "pt1h", "P1.5D", "PT1M2"])
    func badDurations(_ text: String) {
        #expect(ISODuration(text) == nil)
    }

    @Test("decimals use a point, no exponent, digits on both sides")
    func decimals() {
        #expect(DecimalText.parse("-12") == Decimal(-12))
        #expect(DecimalText.parse("12.50") == Decimal(string: "12.5"))
        #expect(DecimalText.parse("0") == 0)
        #expect(DecimalText.parse("+007.250") == Decimal(string: "7.25"))
        for bad in [".5", "5.", "1e5", "1,5", "", "-", "+", "abc", "1.2.3", " 1", "1 ", "--1", "-.5", "1\u{301}", "١٢"]
        {
            #expect(DecimalText.parse(bad) == nil, "\(bad) should be refused")
        }
        #expect(DecimalText.scale(of: "12.50") == 2)
        #expect(DecimalText.scale(of: "12") == 0)
    }

    @Test("sizes take bytes or KB/MB/GB in powers of 1024")
    func byteSizes() {
        #expect(ByteSize.parse("10MB") == 10_485_760)
        #expect(ByteSize.parse("512KB") == 524_288)
        #expect(ByteSize.parse("300") == 300)
        #expect(ByteSize.parse("1 gb") == 1 << 30)
        for bad in ["", "MB", "0", "-1MB", "1.5MB", "ten", "10XB", "99999999999999999GB"] {
            #expect(ByteSize.parse(bad) == nil, "\(bad) should be refused")
        }
        #expect(ByteSize.describe(10_485_760) == "10 MB")
        #expect(ByteSize.describe(1536) == "1.5 KB")
        #expect(ByteSize.describe(1) == "1 byte")
    }
}

@Test("durations of the same length are equal, whatever their spelling, and order with the rest")
func durationEqualityFollowsLength() throws {
    let sixtyMinutes = try #require(ISODuration("PT60M"))
    let oneHour = try #require(ISODuration("PT1H"))
    #expect(sixtyMinutes == oneHour)
    #expect(!(sixtyMinutes < oneHour) && !(oneHour < sixtyMinutes))
    #expect(Set([sixtyMinutes, oneHour]).count == 1)
    #expect(try #require(ISODuration("PT59M")) < oneHour)
}

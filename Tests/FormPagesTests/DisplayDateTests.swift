import Foundation
import Testing

@testable import FormPages

@Test("a moment reads as its UTC date, and to the minute for the admin pages")
func displayDates() {
    // 2026-11-22T14:05:09Z.
    let date = Date(timeIntervalSince1970: 1_795_356_309)
    #expect(DisplayDate.text(date) == "22 November 2026")
    #expect(DisplayDate.timestamp(date) == "22 November 2026, 14:05 UTC")
    #expect(DisplayDate.timestamp(Date(timeIntervalSince1970: 0)) == "1 January 1970, 00:00 UTC")
}

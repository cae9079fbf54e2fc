import FormModel
import Foundation
import Testing

@testable import FormWeb

@Suite("Time zone of today and now")
struct TimeZoneTests {
    @Test("FIELDWORK_TIME_ZONE decides the date of default=\"today\"; a name that is no zone stops the server")
    func configured() async throws {
        let configuration = FieldworkConfiguration.fromEnvironment(["FIELDWORK_TIME_ZONE": "Pacific/Kiritimati"])
        #expect(configuration.timeZone.identifier == "Pacific/Kiritimati")
        #expect(
            FieldworkConfiguration.fromEnvironment(["FIELDWORK_TIME_ZONE": "Mars/Olympus"]).unknownTimeZone
                == "Mars/Olympus")

        var view = try await Fixtures.renderer().formView(
            for: Fixtures.schema([Field(name: "due", kind: .date, defaultValue: "today")]), version: 1)
        // 2026-11-21 20:00 UTC is already the 22nd at UTC+14.
        let now = Date(timeIntervalSince1970: 1_795_291_200)
        view.timeZone = TimeZone(identifier: "UTC")!
        #expect(view.today(now: now) == LocalDate(year: 2026, month: 11, day: 21))
        #expect(view.initialValues(query: [:], now: now)["due"] == ["2026-11-21"])
        view.timeZone = configuration.timeZone
        #expect(view.today(now: now) == LocalDate(year: 2026, month: 11, day: 22))
        #expect(view.initialValues(query: [:], now: now)["due"] == ["2026-11-22"])

        var bad = Fixtures.configuration(data: Fixtures.temporaryDataFolder())
        bad.unknownTimeZone = "Mars/Olympus"
        await #expect(throws: FieldworkConfigurationError.self) { _ = try await buildApplication(bad) }
    }
}

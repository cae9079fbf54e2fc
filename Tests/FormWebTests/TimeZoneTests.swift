import FormModel
import Foundation
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
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

        let schema = Fixtures.schema([Field(name: "due", kind: .date, defaultValue: "today")])
        // 2026-11-21 20:00 UTC is already the 22nd at UTC+14.
        let now = Date(timeIntervalSince1970: 1_795_291_200)
        var view = try await Fixtures.renderer().formView(
            for: schema, version: 1, timeZone: TimeZone(identifier: "UTC")!)
        #expect(view.form.today(now: now) == LocalDate(year: 2026, month: 11, day: 21))
        #expect(view.form.initialValues(query: [:], now: now)["due"] == ["2026-11-21"])
        view = try await Fixtures.renderer().formView(for: schema, version: 1, timeZone: configuration.timeZone)
        #expect(view.form.today(now: now) == LocalDate(year: 2026, month: 11, day: 22))
        #expect(view.form.initialValues(query: [:], now: now)["due"] == ["2026-11-22"])

        var bad = Fixtures.configuration(data: Fixtures.temporaryDataFolder())
        bad.unknownTimeZone = "Mars/Olympus"
        await #expect(throws: FieldworkConfigurationError.self) { _ = try await buildApplication(bad) }
    }
}

import FormImport
import FormModel
import Foundation
import Logging
import NIOCore
import TestSupport

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// What FormWebTests adds to the shared fixtures: a server's configuration and its admin password.
extension Fixtures {
    static func configuration(data: URL, seedsDemo: Bool = false) -> FieldworkConfiguration {
        var configuration = FieldworkConfiguration(
            hostname: "127.0.0.1", port: 0, dataFolder: data, resources: .resolve(), logLevel: .warning,
            seedsDemo: seedsDemo)
        // bcrypt's lowest cost: the tests check sign-in, not the work factor.
        configuration.bcryptCost = 4
        configuration.adminPassword = adminPassword
        // The whole suite shares one machine (and, on PostgreSQL, one server): a database call
        // that waits its turn for seconds is slow here, not an outage.
        configuration.databaseDeadlines = .generous
        configuration.readinessTimeout = .seconds(60)
        return configuration
    }

    /// The admin password the test configurations set.
    static let adminPassword = "correct horse battery staple"
}

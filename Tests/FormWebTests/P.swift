import Testing
import HummingbirdTesting
@testable import FormWeb
@Test func placeholder() {}

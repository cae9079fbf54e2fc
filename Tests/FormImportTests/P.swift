import Testing
@testable import FormImport
@Test func placeholder() {}

import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@testable import FormService

private func classify(_ error: any Error, _ exposure: ODataClient.Exposure, sent: Bool?) throws -> ServiceFailure {
    let http = ServiceHTTPClient()
    defer { try? http.client.syncShutdown() }
    let client = try ODataClient(connection: ODataConnection(serviceRoot: "http://127.0.0.1:9/s/"), http: http)
    return client.failure(error, exposure: exposure, sent: sent)
}

@Test("a time-out before the body was asked for is unreachable; after it, a change's outcome is unknown")
func timeOutsClassified() throws {
    let timeout = HTTPClientError.deadlineExceeded
    #expect(try classify(timeout, .change, sent: false) == .unreachable(.timedOut))
    #expect(try classify(timeout, .change, sent: true) == .outcomeUnknown("no answer within the time limit"))
    // A DELETE has no body to tell by: counted as sent.
    #expect(try classify(timeout, .change, sent: nil) == .outcomeUnknown("no answer within the time limit"))
    #expect(try classify(timeout, .read, sent: nil) == .unreachable(.timedOut))
    #expect(try classify(HTTPClientError.connectTimeout, .change, sent: nil) == .unreachable(.timedOut))
    #expect(try classify(ChannelError.connectTimeout(.seconds(1)), .change, sent: nil) == .unreachable(.timedOut))
    #expect(
        try classify(HTTPClientError.remoteConnectionClosed, .change, sent: true)
            == .outcomeUnknown("the connection closed before the answer"))
}

@Test("the failures' descriptions say what happened and what to do")
func failureTexts() {
    #expect(
        ServiceFailure.unreachable(.timedOut).description
            == "The service could not be reached (it did not answer in time). Nothing was created or changed; try again."
    )
    #expect(
        ServiceFailure.outcomeUnknown("no answer within the time limit").description
            == "The request was sent but its answer was lost (no answer within the time limit); whether the service did it is unknown."
    )
    #expect(
        ServiceFailure.redirectRefused(origin: "https://evil.example:443").description
            == "The service redirected to another origin (https://evil.example:443); only its own origin is followed.")
    #expect(
        ServiceFailure.answerTooLarge(limit: 1024).description
            == "The service's answer was larger than 1024 bytes, the connection's limit.")
}

@Test("Repeatability-First-Sent is an IMF-fixdate")
func imfFixdate() {
    #expect(ODataClient.imfFixdate(Date(timeIntervalSince1970: 1_795_716_000)) == "Thu, 26 Nov 2026 18:00:00 GMT")
    #expect(ODataClient.imfFixdate(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(ODataClient.imfFixdate(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
}

@Test("a CA file that holds no certificate is refused when the client is made")
func badCAFile() throws {
    let http = ServiceHTTPClient()
    defer { try? http.client.syncShutdown() }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fieldwork-no-ca-\(UUID()).pem").path
    try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let error = #expect(throws: ConnectionSettingsError.self) {
        try ODataClient(connection: ODataConnection(serviceRoot: "https://host/s/", caFile: path), http: http)
    }
    #expect(error?.code == "ca-file")
}

import AsyncHTTPClient
import NIOCore

/// The one HTTP client every connection shares, configured as the connectors need it: it never
/// follows a redirect itself (it would follow one to another origin; `ODataClient` follows
/// same-origin ones), gives up on a failed connection at once instead of retrying until the
/// deadline (so "unreachable" comes quickly), decompresses nothing (the size limit counts what
/// arrives), verifies TLS and makes no tracing spans (Fieldwork bootstraps no tracer: AsyncHTTPClient
/// would still describe every request to the no-op one, a tenth of a forwarded create's
/// instructions). Made once at startup and shut down once at the end.
package final class ServiceHTTPClient: Sendable {
    package let client: HTTPClient

    package init(eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .disabled
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10), read: nil)
        configuration.tlsConfiguration = .makeClientConfiguration()
        configuration.tracing.tracer = nil
        client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
    }

    /// Closes the connections; call once, before the process ends.
    package func shutdown() async throws {
        try await client.shutdown()
    }
}

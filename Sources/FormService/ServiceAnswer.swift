import NIOHTTP1

/// An answer read whole (within the size limit), after same-origin redirects.
package struct ServiceAnswer: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// The URL that answered, after redirects.
    package var url: String

    package var isSuccess: Bool { (200..<300).contains(status) }
}

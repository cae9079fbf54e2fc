import Hummingbird
import NIOCore

extension Request {
    /// The body, up to `limit` bytes. A request that declares a longer one (`Content-Length`) is
    /// refused at once, unread, with the error a body over the limit gives as it is read
    /// (`NIOTooManyBytesError`, which each caller answers with 413): a client announcing 2 GB
    /// and sending it a byte at a time holds nothing until its body deadline. A body without a
    /// declared length (chunked) is still cut off at the limit as it comes.
    func boundedBody(upTo limit: Int) async throws -> ByteBuffer {
        if let declared = headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw NIOTooManyBytesError(maxBytes: limit)
        }
        return try await body.collect(upTo: limit)
    }
}

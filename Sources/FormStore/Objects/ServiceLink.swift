import Foundation

/// How an object of a form in mode `service` stands to the entity in the service: the create is
/// recorded (`sending`) before it is sent, so a crash or a lost answer leaves a row that says so
/// and no create is ever sent twice by itself.
package struct ServiceLink: Sendable, Hashable {
    package enum State: String, Sendable, Hashable, CaseIterable {
        /// Recorded, sent or about to be; the answer has not come yet.
        case sending
        /// The service created the entity; `key` finds it.
        case created
        /// Sent, and the answer was lost (a time-out after sending, a crash): the entity may or
        /// may not exist. Listed for admins with its request id; never sent again by itself.
        case unknown
    }

    package var state: State
    /// The entity's key as the connector writes it (JSON of the key properties), once created.
    package var key: String?
    /// The `Repeatability-Request-ID` the create carried.
    package var requestID: UUID?
    /// The entity's ETag as last read.
    package var etag: String?

    package init(state: State, key: String? = nil, requestID: UUID? = nil, etag: String? = nil) {
        self.state = state
        self.key = key
        self.requestID = requestID
        self.etag = etag
    }

    init?(_ record: ObjectRecord) {
        guard let raw = record.serviceState, let state = State(rawValue: raw) else { return nil }
        self.init(state: state, key: record.serviceKey, requestID: record.serviceRequest, etag: record.serviceETag)
    }
}

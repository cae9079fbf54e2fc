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
    /// Where each of the object's items lives in the service, by the item's `_id` (items of
    /// lists within items too): its key and ETag. Empty for an object without items there.
    package var items: [String: Item]

    /// One item's place in the service.
    package struct Item: Sendable, Hashable, Codable {
        /// The item entity's key, as ``ServiceLink/key`` is written.
        package var key: String
        /// Its ETag as last read, when known.
        package var etag: String?

        package init(key: String, etag: String? = nil) {
            self.key = key
            self.etag = etag
        }
    }

    package init(
        state: State, key: String? = nil, requestID: UUID? = nil, etag: String? = nil, items: [String: Item] = [:]
    ) {
        self.state = state
        self.key = key
        self.requestID = requestID
        self.etag = etag
        self.items = items
    }

    init?(_ record: ObjectRecord) {
        guard let raw = record.serviceState, let state = State(rawValue: raw) else { return nil }
        let items =
            record.serviceItems.flatMap { try? JSONDecoder().decode([String: Item].self, from: Data($0.utf8)) } ?? [:]
        self.init(
            state: state, key: record.serviceKey, requestID: record.serviceRequest, etag: record.serviceETag,
            items: items)
    }

    /// ``items`` as the column holds them: JSON, nil when there are none.
    var itemsText: String? {
        guard !items.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(items)).map { String(decoding: $0, as: UTF8.self) }
    }
}

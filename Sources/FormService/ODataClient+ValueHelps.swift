import AsyncHTTPClient
import FormModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Value helps: a page of options searched and filtered, a fixed list read whole, one value
/// looked up.
extension ODataClient {
    /// One page of a value help's options for `field`, searched by `search`, filtered by what the
    /// form holds (`formValues`, by field name).
    package func options(
        for field: String, binding: ServiceBinding, search: String?, formValues: [String: FieldValue],
        top: Int = 20, skip: Int = 0
    ) async throws(ServiceFailure) -> OptionPage {
        try await guarded { () async throws(ServiceFailure) in
            let query = try valueHelpQuery(field, binding: binding)
            let options = try writable { () throws(ODataValueError) in
                try query.page(search: search, formValues: formValues, top: top, skip: skip)
            }
            let (rows, total) = try await collection(query, options: options)
            let fills = rows.contains { !$0.fills.isEmpty } ? rows.map(\.fills) : []
            return OptionPage(options: rows.map(\.option), total: total, fills: fills)
        }
    }

    /// The whole list of a fixed-value help (`ValueListWithFixedValues`), at most `limit` options,
    /// and how many it has when the service counted them (more than given: not whole).
    package func fixedOptions(
        for field: String, binding: ServiceBinding, formValues: [String: FieldValue], limit: Int = 500
    ) async throws(ServiceFailure) -> OptionPage {
        try await guarded { () async throws(ServiceFailure) in
            let query = try valueHelpQuery(field, binding: binding)
            let options = try writable { () throws(ODataValueError) in
                try query.fixedList(formValues: formValues, limit: limit)
            }
            let (rows, total) = try await collection(query, options: options)
            return OptionPage(options: rows.prefix(limit).map(\.option), total: total)
        }
    }

    /// The row of a submitted value (its option and what it gives other fields), looked up with
    /// the same filters the list has; nil when the service has no such option (the value is refused).
    package func lookup(
        _ value: FieldValue, for field: String, binding: ServiceBinding, formValues: [String: FieldValue]
    ) async throws(ServiceFailure) -> ValueHelpRow? {
        try await guarded { () async throws(ServiceFailure) in
            let query = try valueHelpQuery(field, binding: binding)
            let options = try writable { () throws(ODataValueError) in try query.lookup(value, formValues: formValues) }
            let wanted = try writable { () throws(ODataValueError) in try query.valueText(value) }
            return try await collection(query, options: options).rows.first { $0.option.value == wanted }
        }
    }

    func valueHelpQuery(_ field: String, binding: ServiceBinding) throws(ServiceFailure) -> ValueHelpQuery {
        guard let help = binding.valueHelps[field],
            let query = ValueHelpQuery(help: help, field: field, binding: binding, timeZone: connection.timeZone)
        else {
            throw .notWritable(
                ODataValueError(property: field, type: "", message: "the field has no value help with a value property")
            )
        }
        return query
    }

    func collection(
        _ query: ValueHelpQuery, options: [(String, String)]
    ) async throws(ServiceFailure) -> (rows: [ValueHelpRow], total: Int?) {
        let base = try query.help.collectionRoot.map(sameOriginRoot) ?? connection.serviceRoot
        let target = url(PercentEncoding.pathSegment(query.help.collectionPath), query: options, root: base)
        let answer = try await exchange(
            .GET, url: target, headers: versionHeaders(query.binding.version), accept: accept(query.binding.version),
            exposure: .read)
        try check(answer, binding: nil)
        let json = connection.json(query.binding.version)
        let (rows, total) = try json.collection(ODataJSON.parse(answer.body))
        return (
            rows.compactMap { row in
                query.option(row, json: json).map { ValueHelpRow(option: $0, fills: query.fills(row, json: json)) }
            }, total
        )
    }
}

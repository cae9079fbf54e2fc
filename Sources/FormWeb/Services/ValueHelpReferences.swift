import FormImport
import FormModel
import FormService
import Foundation
import Synchronization

/// Follows `Common.ValueListReferences` (`../shared/spec/odata-service.md`, "Value helps"): a value
/// help in a service of its own, at a URL relative to this one, as SAP's RAP services write them
/// (`../../../../srvd_f4/sap/i_currency/0001;ps='…';va='…'/$metadata`). As Fiori elements does,
/// the URL is resolved against the service's `$metadata`, that document is read with the
/// connection's credentials (on the same origin only), and its `Common.ValueListMapping` for the
/// property becomes the value help: collection, parameters, types, text, search.
///
/// Resolved helps are kept per connection until a form or connection changes (they change only
/// when the services do); a reference that could not be followed is tried again after
/// ``retryAfter``. Until then its field keeps the help as imported, which names no collection, so
/// the service cannot check its values: a submission is refused as "could not be checked", never
/// accepted unchecked.
final class ValueHelpReferences: Sendable {
    /// How long a reference that could not be followed waits before it is tried again.
    static let retryAfter: Duration = .seconds(30)

    /// A reference that could not be followed, in words an admin can act on.
    typealias Unresolved = ServiceDrift.Unresolved

    private struct Entry: Sendable {
        var task: Following
        var started: ContinuousClock.Instant
        /// When the task ended without a value help; nil while it runs or once it gave one.
        var failed: ContinuousClock.Instant?
    }

    /// One field's references being followed, or followed.
    private typealias Following = Task<Result<ValueHelp, Unresolved>, Never>

    private let entries = Mutex<[String: Entry]>([:])

    init() {}

    /// Forgets every resolved help: a form or a connection changed.
    func forget() {
        entries.withLock { $0.removeAll() }
    }

    /// The binding with each referenced value help that can be followed resolved (kept for the
    /// connection), the others as imported.
    /// The items' bindings are resolved as well, every level.
    func resolve(_ binding: ServiceBinding, client: ODataClient, connection: UUID) async -> ServiceBinding {
        var withItems = binding
        if var compositions = binding.compositions {
            for (name, composition) in compositions {
                compositions[name]?.binding = await resolve(composition.binding, client: client, connection: connection)
            }
            withItems.compositions = compositions
        }
        let binding = withItems
        let fields = Self.referring(binding)
        guard !fields.isEmpty else { return binding }
        var tasks: [(key: String, field: String, started: ContinuousClock.Instant, task: Following)] = []
        for field in fields {
            let help = binding.valueHelps[field]!
            let key = "\(connection)|\(binding.entityType)|\(field)|\(help.references!.joined(separator: " "))"
            let entry = entries.withLock { entries in
                let now = ContinuousClock.now
                if let entry = entries[key], entry.failed.map({ now < $0 + Self.retryAfter }) ?? true {
                    return entry
                }
                let task = Task { await Self.follow(help, field: field, binding: binding, client: client) }
                let entry = Entry(task: task, started: now)
                entries[key] = entry
                return entry
            }
            tasks.append((key, field, entry.started, entry.task))
        }
        var resolved = binding
        for ask in tasks {
            switch await ask.task.value {
            case .success(let help):
                resolved.valueHelps[ask.field] = help
            case .failure:
                entries.withLock { entries in
                    if entries[ask.key]?.started == ask.started, entries[ask.key]?.failed == nil {
                        entries[ask.key]?.failed = .now
                    }
                }
            }
        }
        return resolved
    }

    /// Follows every reference of the bindings afresh, for a connection test: how many value
    /// helps were followed, and each that was not.
    static func check(
        _ bindings: [ServiceBinding], client: ODataClient
    ) async -> (followed: Int, unresolved: [Unresolved]) {
        await withTaskGroup(of: Result<ValueHelp, Unresolved>.self) { group in
            for binding in bindings.flatMap(withinItems) {
                for field in referring(binding) {
                    group.addTask {
                        await follow(binding.valueHelps[field]!, field: field, binding: binding, client: client)
                    }
                }
            }
            var followed = 0
            var unresolved: [Unresolved] = []
            for await result in group {
                switch result {
                case .success: followed += 1
                case .failure(let why): unresolved.append(why)
                }
            }
            return (followed, unresolved.sorted { ($0.property, $0.field) < ($1.property, $1.field) })
        }
    }

    /// A binding and those of its items, every level.
    static func withinItems(_ binding: ServiceBinding) -> [ServiceBinding] {
        [binding] + (binding.compositions ?? [:]).values.flatMap { withinItems($0.binding) }
    }

    /// Whether the binding or one of its items' has a reference still to follow.
    static func refers(_ binding: ServiceBinding) -> Bool {
        withinItems(binding).contains { !referring($0).isEmpty }
    }

    /// The fields whose value help is a reference still to follow, in name order.
    static func referring(_ binding: ServiceBinding) -> [String] {
        binding.valueHelps.filter { $0.value.references?.isEmpty == false && $0.value.collectionPath.isEmpty }
            .keys.sorted()
    }

    /// One field's value help from the first of its references that gives a mapping for its
    /// property (several are alternatives); why none did otherwise.
    static func follow(
        _ help: ValueHelp, field: String, binding: ServiceBinding, client: ODataClient
    ) async -> Result<ValueHelp, Unresolved> {
        let property = binding.fields[field]?.name ?? field
        var fieldOfProperty: [String: String] = [:]
        for (name, bound) in binding.fields { fieldOfProperty[bound.name] = name }
        var first: Unresolved?
        for reference in help.references ?? [] {
            let why = { (message: String) in
                Unresolved(field: field, property: property, reference: reference, message: message)
            }
            let root: URL
            do {
                root = try client.valueHelpRoot(reference)
            } catch .redirectRefused(let origin) {
                first =
                    first
                    ?? why(
                        "\(binding.entitySet)/\(property)'s value help is in a service on another origin (\(origin)); value helps are followed on the service's origin only."
                    )
                continue
            } catch {
                first = first ?? why("\(binding.entitySet)/\(property)'s value help reference \(reference) is no URL.")
                continue
            }
            let metadata: [UInt8]
            do {
                metadata = try await client.metadata(root: root)
            } catch {
                first =
                    first
                    ?? why(
                        "\(binding.entitySet)/\(property)'s value help service \(root.absoluteString)$metadata could not be read: \(reason(error))"
                    )
                continue
            }
            do {
                var resolved = try ValueListMappings.valueHelp(
                    metadata: metadata, name: root.absoluteString + "$metadata", version: binding.version,
                    property: property, entityType: binding.entityType, fieldOfProperty: fieldOfProperty,
                    fixed: help.fixedValues)
                resolved.collectionRoot = root.absoluteString
                resolved.references = help.references
                if resolved.label == nil { resolved.label = help.label }
                guard resolved.valueProperty(for: field) != nil else {
                    first =
                        first
                        ?? why(
                            "\(root.absoluteString)$metadata maps \(binding.entitySet)/\(property) to \(resolved.collectionPath) without a parameter that gives it its value (ValueListParameterInOut or Out)."
                        )
                    continue
                }
                return .success(resolved)
            } catch {
                first =
                    first
                    ?? why(
                        "\(binding.entitySet)/\(property)'s value help: \(error.errors.first?.message ?? "its $metadata is not OData metadata")"
                    )
            }
        }
        return .failure(
            first
                ?? Unresolved(
                    field: field, property: property, reference: "",
                    message: "\(binding.entitySet)/\(property) names no value help service."))
    }

    /// A failed `$metadata` read in a few words.
    private static func reason(_ failure: ServiceFailure) -> String {
        switch failure {
        case .notFound: "the service answered 404 (no such service)."
        case .refused(let status, _): "the service refused it (\(status))."
        default: failure.description
        }
    }
}

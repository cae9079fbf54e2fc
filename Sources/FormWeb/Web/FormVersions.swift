import FormImport
import FormModel
import FormRules
import FormStore
import Foundation
import Synchronization

/// Every form version a request reaches, prepared once: its schema with the options admins
/// uploaded (an XForm's external instances too) or, for a form connected in mode `service`, its
/// service's fixed-value lists read whole, the XForm's rules compiled into their judge, and each
/// value list's search folded (``PreparedForm``), per mode. The only way a request reaches a
/// version: the pages' plans are built over it (``PlanCache``), while the JSON API, the rules
/// route and the options route use it as it is and never build a page.
///
/// Kept by version, lists revision and mode, so a new version or an upload of options is a new
/// key (the form heads the change feed keeps fresh carry them), at most ``capacity`` entries
/// (least recently used out). A version whose options a service gave holds until those options
/// do (``ServiceValueHelps/lifetime``), then is prepared again from the service's lists then.
/// A lookup is a few instructions under a lock; two requests that miss at once may both
/// prepare the version, and the second one's is kept.
final class FormVersions: Sendable {
    static let capacity = 512

    struct Key: Hashable {
        var version: VersionKey
        var mode: FormMode
    }

    /// A prepared version, and until when its options hold (nil: for ever).
    struct Prepared: Sendable {
        var form: PreparedForm
        var expires: ContinuousClock.Instant?

        var isCurrent: Bool { expires.map { $0 > .now } ?? true }
    }

    private let table = Mutex(LRUCache<Key, Prepared>(capacity: capacity))
    /// The schema of a stored version with its options, read only to prepare it.
    private let source: @Sendable (StoredForm) async throws -> ViewSchema
    /// Where `today` and `now` are read.
    let timeZone: TimeZone

    /// Versions read from the store, with the options admins uploaded or a connected form's
    /// service gives.
    convenience init(store: FormStore, services: ServiceClients, valueHelps: ServiceValueHelps, timeZone: TimeZone) {
        self.init(timeZone: timeZone) { form in
            try await Self.source(of: form, store: store, services: services, valueHelps: valueHelps)
        }
    }

    /// Versions whose schemas `source` gives (a test's own).
    init(timeZone: TimeZone, source: @escaping @Sendable (StoredForm) async throws -> ViewSchema) {
        self.timeZone = timeZone
        self.source = source
    }

    /// Each version's languages of its own (an XForm's itext languages), read once.
    private let languageTable = Mutex(LRUCache<VersionKey, [XFormLanguages.Language]>(capacity: capacity))

    /// The form's language a request asking for `ranges` (most wanted first: its `lang` cookie,
    /// then its `Accept-Language`) is shown: the first the form has by RFC 4647 lookup, or nil
    /// for the form's default (also when the default is the one found).
    /// `ranges` are read only for a form with several languages.
    func language(of form: StoredForm, for ranges: @autoclosure () -> [String]) throws -> String? {
        guard form.sourceKind == .xforms else { return nil }
        let languages = try languages(of: form)
        guard languages.count > 1 else { return nil }
        let ranges = ranges()
        let tags = languages.compactMap(\.tag)
        guard let tag = LanguageTags.lookup(ranges, in: tags), let chosen = languages.first(where: { $0.tag == tag })
        else { return nil }
        return chosen.name == languages.first?.name ? nil : chosen.name
    }

    /// The version's languages of its own, its default first (none but an XForm's), read once.
    private func languages(of form: StoredForm) throws -> [XFormLanguages.Language] {
        guard form.sourceKind == .xforms else { return [] }
        var key = VersionKey(form)
        key.language = nil
        if let known = languageTable.withLock({ $0.value(for: key) }) { return known }
        let languages = try form.rules().map(XFormLanguages.languages(of:)) ?? []
        languageTable.withLock { $0.set(languages, for: key) }
        return languages
    }

    static func key(_ form: StoredForm, mode: FormMode) -> Key {
        Key(version: VersionKey(form), mode: mode)
    }

    /// The version prepared for `mode`, built the first time.
    func prepared(_ form: StoredForm, mode: FormMode) async throws -> PreparedForm {
        try await entry(form, mode: mode).form
    }

    /// The version prepared for `mode` and until when it holds, built the first time.
    func entry(_ form: StoredForm, mode: FormMode) async throws -> Prepared {
        let key = Self.key(form, mode: mode)
        var otherKey = key
        otherKey.mode = mode == .create ? .edit : .create
        let (cached, other) = table.withLock { ($0.value(for: key), $0.value(for: otherKey)) }
        if let cached, cached.isCurrent { return cached }
        let source = try await self.source(form)
        // An XForm's binds, compiled once per version: the other mode's, when it is prepared;
        // a long list's search too, unless a service's lists are in it (they change).
        // A form shown in another of its languages is judged in it: its messages, the outputs
        // of its labels and `jr:itext()`.
        let rules =
            try other?.form.rules
            ?? form.rules().map { rules in
                var rules = rules
                if let language = form.shownLanguage { rules.translations = rules.translations.preferring(language) }
                return try XFormRuleJudge(rules: rules.withUploadedInstances(source.instances), schema: source.schema)
            }
        var prepared = Prepared(
            form: PreparedForm(
                schema: source.schema, version: form.version, mode: mode, listsRevision: form.listsRevision,
                timeZone: timeZone, optionSearches: other?.expires == nil ? other?.form.optionSearches : nil,
                rules: rules),
            expires: source.expires)
        let languages = try languages(of: form)
        prepared.form.language = form.shownLanguage.map { name in (name, languages.first { $0.name == name }?.tag) }
        if languages.filter({ $0.tag != nil }).count > 1 {
            let shown = form.shownLanguage ?? languages.first?.name
            prepared.form.languages = languages.compactMap { language in
                language.tag.map { ($0, LanguageTags.ownName(of: $0), language.name == shown) }
            }
        }
        table.withLock { table in
            // A create view is only ever shown for the newest version.
            table.removeAll { other, _ in
                key.version.makesStale(other.version, latestOnly: mode == .create && other.mode == .create)
            }
            table.set(prepared, for: key)
        }
        return prepared
    }

    /// The schema of a stored version with its uploaded options, or its service's fixed lists,
    /// in the language the request shows it in (``StoredForm/shownLanguage``).
    private static func source(
        of form: StoredForm, store: FormStore, services: ServiceClients, valueHelps: ServiceValueHelps
    ) async throws -> ViewSchema {
        var view = try await untranslated(of: form, store: store, services: services, valueHelps: valueHelps)
        if let language = form.shownLanguage, let rules = try form.rules() {
            view.schema = XFormLanguages.schema(view.schema, rules: rules, language: language)
        }
        return view
    }

    /// ``source(of:store:services:valueHelps:)`` in the form's default language.
    private static func untranslated(
        of form: StoredForm, store: FormStore, services: ServiceClients, valueHelps: ServiceValueHelps
    ) async throws -> ViewSchema {
        var schema = try await store.schema(of: form)
        if form.sourceKind == .xforms, form.listsRevision > 0 {
            // An XForm's external instances as uploaded: its itemsets are evaluated against them.
            var view = ViewSchema(schema)
            view.instances = try await store.uploadedOptions(formID: form.id).compactMapValues(\.instanceXML)
            return view
        }
        // A form in mode `service` reads its value helps from the service: searched as long
        // lists, but for the fixed-value lists it answers for whole, shown as other choices are.
        guard form.usesService, let stored = try form.binding() else { return ViewSchema(schema) }
        // The value helps as the service's target reads them: those in services of their own
        // followed, with their parameters.
        let target = try? await services.target(for: form, schema: schema)
        let binding = target?.binding ?? stored
        schema.markRemoteLists(forFields: binding.valueHelps.keys)
        for field in binding.valueHelps.keys {
            let names = ServiceValueHelps.filterNames(of: field, binding: binding)
            if !names.isEmpty { schema.listFilters[field] = names }
        }
        // An item's fields have the value helps of its composition, by their rule keys.
        for (key, _, itemBinding) in ValueHelpScope.compositions(of: schema, binding: binding) {
            schema.markRemoteLists(forFields: itemBinding.valueHelps.keys.map { "\(key)[].\($0)" })
            for field in itemBinding.valueHelps.keys {
                let names = ServiceValueHelps.filterNames(of: field, binding: itemBinding)
                if !names.isEmpty { schema.listFilters["\(key)[].\(field)"] = names }
            }
        }
        if let target, !(await valueHelps.putFixedLists(into: &schema, target: target)) { return ViewSchema(schema) }
        // Its lists as the service has them now (or, when it could not be asked, long lists for
        // now): asked again when they expire.
        return ViewSchema(schema, expires: .now + ServiceValueHelps.lifetime)
    }
}

/// A stored form version as the caches over it key it: by version, lists revision (an upload
/// of options is a new one) and whether its value helps come from its service.
struct VersionKey: Hashable, Sendable {
    var formID: String
    var version: Int
    var listsRevision: Int
    /// Whether the form's value helps come from its service (connected in mode `service`).
    var usesService = false
    /// The form's language it is shown in (``StoredForm/shownLanguage``); nil for its default.
    var language: String?

    init(formID: String, version: Int, listsRevision: Int, language: String? = nil) {
        self.formID = formID
        self.version = version
        self.listsRevision = listsRevision
        self.language = language
    }

    init(_ form: StoredForm) {
        self.init(formID: form.id, version: form.version, listsRevision: form.listsRevision)
        usesService = form.usesService
        language = form.shownLanguage
    }

    /// Whether what a cache keeps under `other` is stale once it keeps something under this key:
    /// an older lists revision (or mode of service) of the same form is, for every version; with
    /// `latestOnly` (what is only ever shown for the newest version), so are its other versions.
    func makesStale(_ other: VersionKey, latestOnly: Bool) -> Bool {
        other.formID == formID
            && (other.listsRevision != listsRevision || other.usesService != usesService
                || (latestOnly && other.version != version))
    }
}

import FormModel
import FormXML

/// The `Common.ValueListMapping` annotations of a value-help service's `$metadata`: the document a
/// `Common.ValueListReferences` URL names (SAP's `srvd_f4` services). Its annotations target a
/// property of the referencing service by its qualified path
/// (`com.sap.gateway.srvd.dmo.sd_travel_mduu.v0001.TravelType/CurrencyCode`), a namespace this
/// document does not declare; each mapping is a `ValueList` record without `CollectionRoot`, whose
/// `CollectionPath` names an entity set of this document.
///
/// Parsed as every OData document is (`FormImporter`'s guarded parse, `EDMXRecognizer`,
/// `CSDLReader`), and each mapping read as the importer reads a `ValueList` record, so that a value
/// help followed at run time is the one an import of the same annotations would give.
public enum ValueListMappings {
    /// The value help the document gives a property of the referencing service: its unqualified
    /// mapping, else the first in document order (several are alternatives; Fiori elements shows
    /// the unqualified one first), with the collection's property types, the value property's
    /// `Common.Text` and whether the collection takes `$search` (its entity set's
    /// `Capabilities.SearchRestrictions/Searchable`, true unless written false).
    /// - Parameters:
    ///   - metadata: the value-help service's `$metadata` document.
    ///   - name: how errors name the document (its URL).
    ///   - version: the referencing service's OData version; a document of another is refused.
    ///   - property: the referencing property's name (`CurrencyCode`).
    ///   - entityType: the qualified name of the entity type that declares it.
    ///   - fieldOfProperty: the referencing form's field of each of its entity type's properties, by
    ///     property name, for the mapping's `LocalDataProperty`s.
    ///   - fixed: whether the referencing property's list is `ValueListWithFixedValues`.
    /// - Throws: `ImportFailure` when the document is not well-formed EDMX of that version, or has no
    ///   mapping for the property (`no-value-list-mapping`, naming the targets it maps).
    public static func valueHelp(
        metadata: [UInt8], name: String, version: ServiceBinding.Version, property: String, entityType: String,
        fieldOfProperty: [String: String], fixed: Bool
    ) throws(ImportFailure) -> ValueHelp {
        let document = try EDMXRecognizer.recognise(LeanXMLDocument.parse(metadata, file: name), name: name)
        let found: ServiceBinding.Version = document.version == .v2 ? .v2 : .v4
        guard found == version else {
            throw ImportFailure([
                ImportError(
                    code: .noValueListMapping,
                    message:
                        "\(name) is OData \(found.rawValue) metadata, but the service that refers to it speaks \(version.rawValue); a value help in a service of another OData version is not followed.",
                    file: name)
            ])
        }
        var report = ODataReport()
        var index = AnnotationIndex()
        let read = document.xml.withRoot { root in
            CSDLReader.read(
                root, file: name, version: document.version, role: document.role, report: &report, index: &index)
        }
        let mapper = ODataFormMapper(model: ODataModel(metadata: read), index: index, report: report)
        let target = entityType + "/" + property
        let entries = mapper.index.peekAll(target, Term.valueListMapping)
        guard let entry = entries.first(where: { $0.qualifier == nil }) ?? entries.first,
            let record = entry.value.record
        else {
            throw ImportFailure([
                ImportError(
                    code: .noValueListMapping,
                    message: "\(name) holds no Common.ValueListMapping for \(target)\(mapped(in: mapper.index)).",
                    file: name)
            ])
        }
        let container = read.containers.keys.sorted().first ?? ""
        var help = mapper.valueHelp(record, fixed: fixed, container: container, fieldOfProperty: fieldOfProperty)
        if let set = mapper.listSet(help.collectionPath, container: container),
            let restrictions = mapper.index.table(set.container + "/" + set.name).flatMap({
                mapper.index.peek($0, Term.searchRestrictions)
            })?.value.record,
            case .bool(false)? = restrictions["Searchable"]
        {
            help.searchSupported = false
        }
        return help
    }

    /// The targets the document maps, for the refusal of one it does not: "; it maps A and B".
    private static func mapped(in index: AnnotationIndex) -> String {
        var targets: [String] = []
        for entry in index.entries where entry.term == Term.valueListMapping && !targets.contains(entry.target) {
            targets.append(entry.target)
        }
        return targets.isEmpty ? " (it holds none)" : "; it maps \(Words.list(targets.prefix(5).map { $0 }))"
    }
}

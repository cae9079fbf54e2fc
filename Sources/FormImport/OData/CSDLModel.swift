/// The parts of a CSDL / EDMX model the form mapping reads. Every type name is qualified with
/// its schema's namespace (aliases resolved), so names from different documents compare equal.

import FormXML

/// A structural property of an entity or complex type. A class: forms of several entity sets
/// share the declarations of their types without copying them.
final class PropertyDecl: Sendable {
    let name: String
    /// The qualified name of the type declaring it.
    let declaringType: String
    /// `Edm.String`, or a qualified enum, type definition or complex type name; for a collection the item type.
    let type: String
    let isCollection: Bool
    let nullable: Bool
    let maxLength: String?
    let precision: String?
    let scale: String?
    let defaultValue: String?
    let sap: SAPValues
    /// V2 `annotation:StoreGeneratedPattern` (`Identity`, `Computed`).
    let storeGeneratedPattern: String?
    let line: Int

    init(
        name: String, declaringType: String, type: String, isCollection: Bool, nullable: Bool, maxLength: String?,
        precision: String?, scale: String?, defaultValue: String?, sap: SAPValues, storeGeneratedPattern: String?,
        line: Int
    ) {
        self.name = name
        self.declaringType = declaringType
        self.type = type
        self.isCollection = isCollection
        self.nullable = nullable
        self.maxLength = maxLength
        self.precision = precision
        self.scale = scale
        self.defaultValue = defaultValue
        self.sap = sap
        self.storeGeneratedPattern = storeGeneratedPattern
        self.line = line
    }
}

/// The V2 `sap:` attributes the mapping reads (others are only checked for typos).
struct SAPValues: Sendable {
    var label: String?
    var quickinfo: String?
    var creatable: String?
    var updatable: String?
    var visible: String?
    var displayFormat: String?
    var semantics: String?
    var unit: String?
    var valueList: String?
    var fieldControl: String?
    /// SuccessFactors' `sap:required="true"`: the service requires a value.
    var required: String?
    /// The property that holds this one's text (V2's `Common.Text`).
    var text: String?
}

/// An entity type or complex type.
struct StructuredTypeDecl: Sendable {
    var name: String
    var isComplex: Bool
    var baseType: String?
    var hasStream: Bool
    var keys: [String]
    var properties: [PropertyDecl]
    var navigationProperties: [String]
    /// The navigation properties, where each leads (``NavigationDecl``).
    var navigations: [NavigationDecl] = []
    var sap: SAPValues
    var line: Int
}

/// A navigation property as written: V4's target type and containment, V2's association roles.
struct NavigationDecl: Sendable {
    var name: String
    /// V4 `Type`: the target type (qualified), and whether it is a collection.
    var type: String?
    var isCollection = false
    /// V4 `ContainsTarget="true"`: the targets are contained in (composed into) the entity.
    var containsTarget = false
    /// V4 `Partner`: the target's navigation back.
    var partner: String?
    /// V4 `ReferentialConstraint`s: this type's property that holds the target's `referenced` one.
    var constraints: [(property: String, referenced: String)] = []
    /// V2 `Relationship` (qualified), `FromRole` and `ToRole`.
    var relationship: String?
    var fromRole: String?
    var toRole: String?
    var line: Int
}

/// A V2 association: its ends by role, and the referential constraint between them.
struct AssociationDecl: Sendable {
    var name: String
    /// Role → the end's entity type (qualified) and multiplicity (`1`, `0..1`, `*`).
    var ends: [String: (type: String, multiplicity: String)] = [:]
    /// The principal's role and key properties, the dependent's role and the properties that hold them.
    var principal: (role: String, properties: [String])?
    var dependent: (role: String, properties: [String])?
}

/// An enumeration type and its members in order.
struct EnumTypeDecl: Sendable {
    var name: String
    var isFlags: Bool
    var members: [String]
    /// `UnderlyingType`, `Edm.Int32` when not written.
    var underlyingType = "Edm.Int32"
}

/// A type definition: a primitive type with facets of its own.
struct TypeDefinitionDecl: Sendable {
    var name: String
    var underlyingType: String
    var maxLength: String?
    var precision: String?
    var scale: String?
}

/// An entity set of a container.
struct EntitySetDecl: Sendable {
    var name: String
    var entityType: String
    /// The container's qualified name (`Namespace.Container`): annotation targets start with it.
    var container: String
    /// The namespace of the schema that holds the container, for the form id.
    var schemaNamespace: String
    var sap: SAPValues
    var line: Int
    /// V4 `NavigationPropertyBinding`s: navigation path → target entity set.
    var navigationBindings: [String: String] = [:]
}

/// What one EDMX document declares: its aliases, model elements and annotations.
struct CSDLDocument: Sendable {
    enum Version: Sendable { case v2, v4 }

    var file: String
    var version: Version
    /// Alias → namespace, from `edmx:Include` and `Schema Alias`.
    var aliases: [String: String] = [:]
    /// Namespaces declared by includes and schemas.
    var namespaces: Set<String> = []
    var schemaNamespaces: [String] = []
    var types: [String: StructuredTypeDecl] = [:]
    var enums: [String: EnumTypeDecl] = [:]
    var typeDefinitions: [String: TypeDefinitionDecl] = [:]
    var entitySets: [EntitySetDecl] = []
    /// V2 associations by qualified name.
    var associations: [String: AssociationDecl] = [:]
    /// Container name → the names of its children (entity sets, singletons, imports).
    var containers: [String: Set<String>] = [:]
    /// Qualified names of actions, functions and terms: targets the mapping never reads.
    var operations: Set<String> = []
    /// Metadata or annotations only, decided from what the document declares (`EDMXRole`).
    var role = EDMXRole.annotations
    var declaresModel: Bool { role == .metadata }
}

/// Whether an EDMX document is service metadata or an annotation document: metadata declares an
/// entity type or an entity container. Decided once per document, by this one rule, for the
/// import's order (`FormImporter`) and for the report; by local name, so that a document whose
/// EDM elements are in no namespace, or in the wrong one, is still taken for what it declares.
enum EDMXRole: Sendable {
    case metadata, annotations

    static func of(_ root: XMLNode) -> EDMXRole {
        var role = EDMXRole.annotations
        root.forEachChild { dataServices in
            guard role == .annotations, dataServices.hasLocalName("DataServices") else { return }
            dataServices.forEachChild { schema in
                guard role == .annotations, schema.hasLocalName("Schema") else { return }
                schema.forEachChild { element in
                    if element.hasLocalName("EntityType") || element.hasLocalName("EntityContainer") {
                        role = .metadata
                    }
                }
            }
        }
        return role
    }
}

/// The metadata of one import, with the look-ups the mapping needs.
struct ODataModel {
    let metadata: CSDLDocument
    /// Type name → names of its properties and navigation properties, base types' included;
    /// filled for the types annotation targets name.
    private let members = MemberCache()
    /// Simple container name → qualified name, for targets written without a namespace.
    private let containersBySimpleName: [String: String]
    /// `Container/EntitySet` → the set's entity type, for targets through a set.
    private let setTypes: [String: String]

    private final class MemberCache {
        var names: [String: Set<String>] = [:]
    }

    init(metadata: CSDLDocument) {
        self.metadata = metadata
        var simple: [String: String] = [:]
        for container in metadata.containers.keys {
            if let dot = container.lastIndex(ofASCII: UInt8(ascii: ".")) {
                simple[String(container[container.index(after: dot)...])] = container
            }
        }
        containersBySimpleName = simple
        var types: [String: String] = [:]
        for set in metadata.entitySets where types[set.container + "/" + set.name] == nil {
            types[set.container + "/" + set.name] = set.entityType
        }
        setTypes = types
    }

    /// The names of a type's properties and navigation properties, base types' included.
    private func memberNames(_ typeName: String) -> Set<String>? {
        if let known = members.names[typeName] { return known }
        guard metadata.types[typeName] != nil else { return nil }
        var names = Set<String>()
        for type in typeChain(typeName) {
            names.formUnion(type.properties.map(\.name))
            names.formUnion(type.navigationProperties)
        }
        members.names[typeName] = names
        return names
    }

    private static func chain(_ typeName: String, in metadata: CSDLDocument) -> [StructuredTypeDecl] {
        var chain: [StructuredTypeDecl] = []
        var next: String? = typeName
        var seen = Set<String>()
        while let name = next, let type = metadata.types[name], seen.insert(name).inserted {
            chain.append(type)
            next = type.baseType
        }
        return chain
    }

    /// The type and its base types, most derived first.
    func typeChain(_ typeName: String) -> [StructuredTypeDecl] { ODataModel.chain(typeName, in: metadata) }

    /// The names of `typeChain(typeName)`, without copying the types.
    func typeChainNames(_ typeName: String) -> [String] {
        guard let type = metadata.types[typeName] else { return [] }
        guard let base = type.baseType else { return [typeName] }
        var names = [typeName]
        var next: String? = base
        var seen: Set<String> = [typeName]
        while let name = next, let type = metadata.types[name], seen.insert(name).inserted {
            names.append(name)
            next = type.baseType
        }
        return names
    }

    /// The type's properties with their base types', base first, in declaration order; a
    /// property declared again in a derived type takes the base's place.
    func properties(of typeName: String) -> [PropertyDecl] {
        guard let type = metadata.types[typeName] else { return [] }
        if type.baseType == nil { return type.properties }
        var result: [PropertyDecl] = []
        var index: [String: Int] = [:]
        for type in typeChain(typeName).reversed() {
            for property in type.properties {
                if let at = index[property.name] {
                    result[at] = property
                } else {
                    index[property.name] = result.count
                    result.append(property)
                }
            }
        }
        return result
    }

    /// The key property names, from the type or the nearest base type that declares them.
    func keys(of typeName: String) -> [String] {
        var next: String? = typeName
        var seen = 0
        // The chain without copying its types; a cycle of base types ends at the types declared.
        while let name = next, let type = metadata.types[name], seen <= metadata.types.count {
            if !type.keys.isEmpty { return type.keys }
            next = type.baseType
            seen += 1
        }
        return []
    }

    /// A target written `Container/Set` (no namespace) with its container qualified.
    func qualifyingContainer(of target: String) -> String {
        let end = target.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "(") } ?? target.endIndex
        let head = String(target[..<end])
        guard !head.contains(ascii: UInt8(ascii: ".")), let container = containersBySimpleName[head] else {
            return target
        }
        return container + target[end...]
    }

    /// A target through an entity set to a member of its type (`Container/Books/title`, as some
    /// generators write a property's annotations) as the member of the type (`Type/title`), where
    /// the forms read them; any other target as it is. The container is qualified already.
    func memberThroughSet(_ target: String) -> String {
        // Most targets are types or their members, with one slash at most: no look-up at all.
        let utf8 = target.utf8
        guard let slash = utf8.firstIndex(of: UInt8(ascii: "/")),
            let next = utf8[utf8.index(after: slash)...].firstIndex(of: UInt8(ascii: "/")),
            let type = setTypes[String(target[..<next])]
        else { return target }
        // Only a structural property: a navigation property's annotations through a set
        // (`Capabilities.NavigationRestrictions` and the like) say nothing a form reads. Left
        // as they are, they cost no rename, and a rename indexes every annotation again.
        let member = target[utf8.index(after: next)...].prefix { $0 != "/" }
        guard !member.isEmpty, properties(of: type).contains(where: { $0.name == member }) else { return target }
        return type + target[next...]
    }

    /// Whether an annotation target names something the metadata declares. Operation targets
    /// (with or without an overload in parentheses) count as declared; deeper paths are judged
    /// by their first two segments.
    func declares(target: String) -> Bool {
        if let paren = target.firstIndex(ofASCII: UInt8(ascii: "(")) {
            return metadata.operations.contains(String(target[..<paren]))
        }
        guard let slash = target.firstIndex(ofASCII: UInt8(ascii: "/")) else {
            let head = target
            return metadata.types[head] != nil || metadata.enums[head] != nil || metadata.typeDefinitions[head] != nil
                || metadata.containers[head] != nil || metadata.operations.contains(head)
                || metadata.schemaNamespaces.contains(head)
        }
        let head = String(target[..<slash])
        let rest = target[target.index(after: slash)...]
        let member = String(rest[..<(rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex)])
        if let names = memberNames(head) { return names.contains(member) }
        if let names = metadata.enums[head]?.members { return names.contains(member) }
        if let names = metadata.containers[head] { return names.contains(member) }
        return metadata.operations.contains(head)
    }
}

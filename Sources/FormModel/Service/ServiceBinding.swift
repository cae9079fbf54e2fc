/// How a form imported from OData metadata maps onto the service its objects live in: the entity
/// set, the key, each field's property and type, the value helps and the draft actions. The
/// importer writes it beside the form's schema; the connector (`FormService`) reads it to build
/// requests and read answers. Plain data, kept as JSON with the form version.
public struct ServiceBinding: Codable, Sendable, Hashable {
    /// The OData protocol version the metadata speaks.
    public enum Version: String, Codable, Sendable, Hashable {
        case v2 = "2.0"
        case v4 = "4.0"
    }

    public var version: Version
    /// The entity set objects are created in (`TravelSet`), as the service names it.
    public var entitySet: String
    /// The entity type's qualified name (`com.sap.travel.Travel`), for V4 bound actions and drift.
    public var entityType: String
    /// The key properties in declaration order, each with its type: a key in a URL is written
    /// from them (`Travel(TravelUUID=guid'…',IsActiveEntity=true)`).
    public var keys: [ServiceProperty]
    /// The property behind each field, by field name (a field may be renamed from its property).
    public var fields: [String: ServiceProperty]
    /// The value help of each field that has one, by field name.
    public var valueHelps: [String: ValueHelp]
    /// The draft actions when the entity set is a draft root (`Common.DraftRoot`).
    public var draft: DraftActions?
    /// Whether the entity is a media entity (`HasStream`), whose stream is written to the service.
    public var mediaEntity: Bool
    /// The namespace of the entity container, for V2 function imports and V4 bound actions.
    public var namespace: String
    /// Every structural property the entity type declares (fields or not): a test of the
    /// connection compares them with the served metadata's.
    public var declared: [ServiceProperty]?
    /// The compositions the form's item lists stand for, by list name: the navigation property
    /// and the items' own binding (nil in bindings imported before item lists).
    public var compositions: [String: ServiceComposition]?

    public init(
        version: Version, entitySet: String, entityType: String, keys: [ServiceProperty],
        fields: [String: ServiceProperty], valueHelps: [String: ValueHelp] = [:], draft: DraftActions? = nil,
        mediaEntity: Bool = false, namespace: String = ""
    ) {
        self.version = version
        self.entitySet = entitySet
        self.entityType = entityType
        self.keys = keys
        self.fields = fields
        self.valueHelps = valueHelps
        self.draft = draft
        self.mediaEntity = mediaEntity
        self.namespace = namespace
    }

    /// The field bound to a property, if any.
    public func field(forProperty name: String) -> String? {
        fields.first { $0.value.name == name }?.key
    }
}

/// An item list of a form imported from OData: the composition it stands for (`_Booking`,
/// `to_Item`) and how an item maps onto the child entity.
public struct ServiceComposition: Codable, Sendable, Hashable {
    /// The navigation property from the parent to its items.
    public var navigation: String
    /// The child entity set, key, fields and their properties, as a form's binding.
    public var binding: ServiceBinding

    public init(navigation: String, binding: ServiceBinding) {
        self.navigation = navigation
        self.binding = binding
    }
}

/// One property of an entity type as the service declares it.
public struct ServiceProperty: Codable, Sendable, Hashable {
    /// The property's name in the service (`CurrencyCode`).
    public var name: String
    /// The primitive type's qualified name (`Edm.Decimal`); an enum or type definition is given
    /// by its underlying primitive type.
    public var type: String
    public var precision: Int?
    /// The scale, when a number; nil for `variable` or none.
    public var scale: Int?
    public var maxLength: Int?
    public var nullable: Bool
    /// Filled in by the service (`Core.Computed`, `sap:creatable="false"` on a key), never sent.
    public var computed: Bool
    /// The enumeration's qualified name when the property's type is one (`type` is then its
    /// underlying type): V4 writes such a value as the member's name (`"Open"`), not a number.
    public var enumType: String?

    public init(
        name: String, type: String, precision: Int? = nil, scale: Int? = nil, maxLength: Int? = nil,
        nullable: Bool = true, computed: Bool = false, enumType: String? = nil
    ) {
        self.name = name
        self.type = type
        self.precision = precision
        self.scale = scale
        self.maxLength = maxLength
        self.nullable = nullable
        self.computed = computed
        self.enumType = enumType
    }
}

/// A value help (`Common.ValueList`, V2 `sap:value-list` with its annotation): the collection the
/// options come from and how its properties meet the form's fields.
public struct ValueHelp: Codable, Sendable, Hashable {
    /// The entity set of the options (`CollectionPath`), relative to the service root or to
    /// `collectionRoot`.
    public var collectionPath: String
    /// The root of another service that holds the collection (`ValueListReferences`,
    /// `CollectionRoot`), relative to this service's root; nil for this service.
    public var collectionRoot: String?
    /// A title for the list (`Label`).
    public var label: String?
    /// `ValueListWithFixedValues`: the list is short and fetched whole.
    public var fixedValues: Bool
    /// `SearchSupported`: the collection takes `$search`.
    public var searchSupported: Bool
    public var parameters: [Parameter]
    /// The collection's properties with their types, when the collection is declared in the same
    /// metadata: filters and keys are written in each one's literal form.
    public var listTypes: [String: String]
    /// The list property that gives a value's text (`Common.Text` of the value property), when known.
    public var textProperty: String?
    /// `Common.ValueListReferences` as written, relative to this service's root: the `$metadata`
    /// of each service whose `Common.ValueListMapping` for the property is this value help, in
    /// order (several are alternatives). The help then has an empty `collectionPath`, no
    /// parameters, and the first one's service root as `collectionRoot`: the connector reads the
    /// mapping there. Nil for a value help the metadata describes itself.
    public var references: [String]?

    public init(
        collectionPath: String, collectionRoot: String? = nil, label: String? = nil, fixedValues: Bool = false,
        searchSupported: Bool = false, parameters: [Parameter], listTypes: [String: String] = [:],
        textProperty: String? = nil, references: [String]? = nil
    ) {
        self.collectionPath = collectionPath
        self.collectionRoot = collectionRoot
        self.label = label
        self.fixedValues = fixedValues
        self.searchSupported = searchSupported
        self.parameters = parameters
        self.listTypes = listTypes
        self.textProperty = textProperty
        self.references = references
    }

    /// How one property of the collection meets the form.
    public struct Parameter: Codable, Sendable, Hashable {
        public enum Kind: String, Codable, Sendable, Hashable {
            /// `ValueListParameterInOut`: filters by the field's value and gives it.
            case inOut = "in-out"
            /// `ValueListParameterIn`: filters by the field's value.
            case `in`
            /// `ValueListParameterOut`: gives the field its value.
            case out
            /// `ValueListParameterDisplayOnly`: shown beside the value.
            case displayOnly = "display-only"
            /// `ValueListParameterConstant`: always filters by a constant.
            case constant
            /// `ValueListParameterFilterOnly`: may be filtered by; neither read nor written.
            case filterOnly = "filter-only"
        }

        public var kind: Kind
        /// The collection's property (`ValueListProperty`).
        public var listProperty: String
        /// The form's field it meets (`LocalDataProperty`), by field name; nil for display-only,
        /// constant and filter-only parameters, or when the local property is not a field.
        public var field: String?
        /// The constant of a `constant` parameter.
        public var constant: String?

        public init(kind: Kind, listProperty: String, field: String? = nil, constant: String? = nil) {
            self.kind = kind
            self.listProperty = listProperty
            self.field = field
            self.constant = constant
        }
    }

    /// The collection property whose value the field with this name takes: the in-out or out
    /// parameter of that field.
    public func valueProperty(for field: String) -> String? {
        parameters.first { ($0.kind == .inOut || $0.kind == .out) && $0.field == field }?.listProperty
    }

    /// The collection properties that label an option: the text property, else the display-only ones.
    public var labelProperties: [String] {
        if let textProperty { return [textProperty] }
        return parameters.filter { $0.kind == .displayOnly }.map(\.listProperty)
    }
}

/// The actions that make a draft an active object (`Common.DraftRoot`): V4 bound actions by their
/// qualified names, V2 function imports by their names.
public struct DraftActions: Codable, Sendable, Hashable {
    /// `ActivationAction`.
    public var activate: String
    /// `PreparationAction`, called before activation when the service declares it.
    public var prepare: String?
    /// `DiscardAction` (V2; V4 discards a draft with `DELETE`).
    public var discard: String?
    /// `EditAction`: a draft of an active object, for edits.
    public var edit: String?

    public init(activate: String, prepare: String? = nil, discard: String? = nil, edit: String? = nil) {
        self.activate = activate
        self.prepare = prepare
        self.discard = discard
        self.edit = edit
    }
}

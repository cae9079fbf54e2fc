import FormModel

/// How the metadata a service serves now differs from the metadata its forms were imported from:
/// entity sets gone, properties gone or added, types changed. A warning for admins (the forms keep
/// working where the parts they use still match), never a refusal.
package struct ServiceDrift: Codable, Sendable, Hashable {
    /// One difference, in a sentence an admin can act on.
    package struct Difference: Codable, Sendable, Hashable {
        package enum Kind: String, Codable, Sendable, Hashable {
            /// The imported entity set is not in the served metadata, or takes no creates there.
            case missingSet = "missing-set"
            /// A property a form's field stands for is not in the served entity type.
            case missingProperty = "missing-property"
            /// A property's type, length, precision or scale differs.
            case changedType = "changed-type"
            /// The served key differs from the imported one.
            case changedKey = "changed-key"
        }

        package var kind: Kind
        package var entitySet: String
        package var property: String?
        package var message: String
    }

    package var differences: [Difference]
    /// The value helps in services of their own (`Common.ValueListReferences`) that were followed
    /// and those that were not; nil when the forms have none.
    package var valueHelpReferences: References?

    /// How the value helps in services of their own fared when the connection was tested.
    package struct References: Codable, Sendable, Hashable {
        /// How many were followed: their service's `$metadata` read, a mapping found.
        package var followed: Int
        /// Each one that was not, with why.
        package var unresolved: [Unresolved]

        package init(followed: Int, unresolved: [Unresolved]) {
            self.followed = followed
            self.unresolved = unresolved
        }

        /// "2 of 3 value helps in services of their own were followed."
        package var summary: String {
            let total = followed + unresolved.count
            let helps = total == 1 ? "value help in a service of its own" : "value helps in services of their own"
            let verb = followed == 1 && total == 1 ? "was" : "were"
            return "\(followed) of \(total) \(helps) \(verb) followed."
        }
    }

    /// A value help in a service of its own that could not be followed.
    package struct Unresolved: Error, Codable, Sendable, Hashable {
        /// The form's field.
        package var field: String
        /// The property that refers to the value help.
        package var property: String
        /// The reference as written (`../../srvd_f4/…/$metadata`).
        package var reference: String
        /// Why, in a sentence an admin can act on.
        package var message: String

        package init(field: String, property: String, reference: String, message: String) {
            self.field = field
            self.property = property
            self.reference = reference
            self.message = message
        }
    }

    package init(differences: [Difference] = [], valueHelpReferences: References? = nil) {
        self.differences = differences
        self.valueHelpReferences = valueHelpReferences
    }

    package var isEmpty: Bool { differences.isEmpty }

    /// Compares the imported forms' bindings with those the served metadata gives.
    /// - Parameters:
    ///   - imported: the connected forms' bindings, as imported.
    ///   - served: the bindings an import of the served `$metadata` gives, every creatable set.
    ///     Properties the service added are not listed: the imported forms may leave out properties
    ///     on purpose (their annotation files), so a property they lack is not news.
    package static func compare(imported: [ServiceBinding], served: [ServiceBinding]) -> ServiceDrift {
        var differences: [Difference] = []
        let servedSets = Dictionary(served.map { ($0.entitySet, $0) }, uniquingKeysWith: { first, _ in first })
        for binding in imported.sorted(by: { $0.entitySet < $1.entitySet }) {
            let set = binding.entitySet
            guard let now = servedSets[set] else {
                differences.append(
                    Difference(
                        kind: .missingSet, entitySet: set, property: nil,
                        message:
                            "The service has no entity set \(set) that takes creates; its form cannot write objects there."
                    ))
                continue
            }
            if binding.keys.map(\.name) != now.keys.map(\.name) {
                differences.append(
                    Difference(
                        kind: .changedKey, entitySet: set, property: nil,
                        message:
                            "\(set)'s key is \(now.keys.map(\.name).joined(separator: ", ")) in the service, \(binding.keys.map(\.name).joined(separator: ", ")) as imported."
                    ))
            }
            let all = now.declared ?? Array(now.fields.values) + now.keys
            let servedByName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for property in binding.fields.values.sorted(by: { $0.name < $1.name }) {
                guard let current = servedByName[property.name] else {
                    differences.append(
                        Difference(
                            kind: .missingProperty, entitySet: set, property: property.name,
                            message: "\(set)/\(property.name) is not in the service; its field's value cannot be sent.")
                    )
                    continue
                }
                if let change = typeChange(from: property, to: current) {
                    differences.append(
                        Difference(
                            kind: .changedType, entitySet: set, property: property.name,
                            message:
                                "\(set)/\(property.name) is \(change.now) in the service (imported as \(change.was))."
                        ))
                }
            }
        }
        return ServiceDrift(differences: differences)
    }

    /// What a property's type is now and was, as words, or nil when nothing changed.
    private static func typeChange(from old: ServiceProperty, to new: ServiceProperty) -> (now: String, was: String)? {
        if old.type != new.type { return (new.type, old.type) }
        if old.maxLength != new.maxLength {
            let length = { (n: Int?) in n.map { "at most \($0) characters" } ?? "of any length" }
            return (length(new.maxLength), old.maxLength.map(String.init) ?? "of any length")
        }
        if old.precision != new.precision || old.scale != new.scale {
            let digits = { (p: Int?, s: Int?) in
                "precision \(p.map(String.init) ?? "-"), scale \(s.map(String.init) ?? "-")"
            }
            return (digits(new.precision, new.scale), digits(old.precision, old.scale))
        }
        return nil
    }
}

import FormModel
import Foundation

/// `UI.InputMask` (experimental in SAP's UI vocabulary): a mask such as `99-999-9999` in which
/// `9` stands for a digit, `C` for a letter and `*` for any character, unless the record's
/// `Rules` give a symbol (these or others) a regular expression of its own. Other characters
/// of the mask are typed as they are.
enum ODataInputMask {
    /// What a mask becomes on a text field.
    enum Constraint: Equatable {
        /// The native grouped format (`#` digit, `A` letter, `*` any): the mask used only the
        /// default rules, and its other characters are separators. The stored value is the
        /// characters without the separators, as the property's MaxLength expects for masks
        /// like the DUNS number's.
        case format(String)
        /// A full-match pattern: custom rules, or literal characters that are not separators.
        case pattern(String)
    }

    static let defaultRules: [Character: String] = ["9": "[0-9]", "C": "[a-zA-Z]", "*": "."]
    private static let formatSymbols: [Character: Character] = ["9": "#", "C": "A", "*": "*"]

    /// The constraint of a mask record, or why there is none: no mask, or a rule that is
    /// unusable (the field then keeps no mask, and the report says why).
    static func constraint(of record: AnnotationRecord) -> Result<Constraint, Refusal> {
        guard let mask = record["Mask"]?.string, !mask.isEmpty else { return .failure(.noMask) }
        var rules = defaultRules
        for item in record["Rules"]?.collection ?? [] {
            guard let rule = item.record, let symbol = rule["MaskSymbol"]?.string, symbol.count == 1,
                let expression = rule["RegExp"]?.string, (try? NSRegularExpression(pattern: expression)) != nil
            else { return .failure(.badRule) }
            rules[symbol.first!] = expression
        }
        let onlyDefaults = rules == defaultRules
        let literalsAreSeparators = mask.allSatisfy { rules[$0] != nil || GroupedFormat.separators.contains($0) }
        if onlyDefaults && literalsAreSeparators {
            return .success(.format(String(mask.map { formatSymbols[$0] ?? $0 })))
        }
        let pattern = mask.map { character in
            rules[character].map { "(?:\($0))" } ?? NSRegularExpression.escapedPattern(for: String(character))
        }.joined()
        return .success(.pattern(pattern))
    }

    enum Refusal: Error, Equatable {
        case noMask
        case badRule

        var reason: String {
            switch self {
            case .noMask: "its UI.InputMask has no Mask"
            case .badRule: "a rule of its UI.InputMask is not one symbol with a regular expression the server can use"
            }
        }
    }
}

import FormModel
import FormXML
import Foundation

/// What a judged XForm's expressions ask of the form and of the world: its itext in the default
/// language, its options' labels (`jr:choice-name`), the server's clock and zone.
package struct XFormHost: XPathHost {
    let translations: XFormTranslations
    /// Option label by value, by the select's node path (`/data/city`).
    let optionLabels: [String: [String: String]]
    package let now: Date
    package let timeZone: TimeZone

    package init(
        rules: XFormRules, optionLabels: [String: [String: String]] = [:], now: Date = Date(),
        timeZone: TimeZone = .current
    ) {
        translations = rules.translations
        self.optionLabels = optionLabels
        self.now = now
        self.timeZone = timeZone
    }

    package func itext(_ id: String) -> String? {
        translations.text(id)?.text.map { XFormSegment.joined($0, placeholder: "") }
    }

    package func choiceName(value: String, selectRef: String) -> String? {
        optionLabels[selectRef]?[value]
    }
}

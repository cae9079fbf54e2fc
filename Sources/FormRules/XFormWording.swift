import Foundation

/// The product's own messages for an XForm's rules, when the form gives none
/// (`jr:requiredMsg`, `jr:constraintMsg`), built from the question's label as the mapping says
/// ("Enter Age", "Age is not valid"). A label that is a question ("Do you consent?") is quoted
/// whole rather than run into a sentence ("Answer “Do you consent?”").
package enum XFormWording {
    /// Whether a label asks a question: it ends with a question mark (Latin, Arabic or full-width).
    package static func isQuestion(_ label: String) -> Bool {
        guard let last = label.trimmingCharacters(in: .whitespacesAndNewlines).last else { return false }
        return last == "?" || last == "؟" || last == "？"
    }

    /// A required question left empty, by its control (`select1`, `select`, `trigger`, `upload`…).
    package static func required(_ label: String, control: String?) -> String {
        if isQuestion(label) { return "Answer “\(label)”" }
        switch control {
        case "select1", "select": return "Select \(label)"
        case "trigger": return "Confirm \(label)"
        case "upload": return "Upload \(label)"
        default: return "Enter \(label)"
        }
    }

    /// A value its constraint refuses.
    package static func constraint(_ label: String) -> String {
        isQuestion(label) ? "The answer to “\(label)” is not valid" : "\(label) is not valid"
    }

    /// A choice not among the options offered for the answers.
    package static func choice(_ label: String) -> String {
        isQuestion(label)
            ? "Choose an answer to “\(label)” from the options offered" : "Choose \(label) from the options offered"
    }
}

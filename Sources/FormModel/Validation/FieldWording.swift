/// How messages name a field: "Cost must be 0 or more", "Enter a due date", "Select at most 3 categories".
///
/// The subject is the field's `displayName` as written; the noun inside a sentence is lower-cased
/// word by word, except acronyms and mixed-case words ("URL", "iOS").
public struct FieldWording: Sendable, Hashable {
    /// The name at the start of a sentence: "Due date", "Title".
    public let subject: String
    private let isEmail: Bool

    /// Cheap: every rule makes one for the field it checks, and most values pass without a
    /// message, so the words are worked out only when a message asks for them.
    public init(_ field: Field) {
        subject = field.displayName
        isEmail = field.constraints.textType == .email
    }

    /// The name inside a sentence: "due date", "email address".
    public var noun: String {
        let noun = FieldWording.lowercased(subject)
        if isEmail, noun == "email" || noun == "e-mail" { return "email address" }
        return noun
    }

    /// Whether the name reads as a plural ("Notes", "Categories"), so it takes no article.
    public var isPlural: Bool {
        guard let last = noun.split(separator: " ").last?.lowercased(), last.count > 2, last.hasSuffix("s") else {
            return false
        }
        return !(last.hasSuffix("ss") || last.hasSuffix("us") || last.hasSuffix("is"))
    }

    /// The noun with its article: "a due date", "an estimate", "notes".
    public var withArticle: String {
        isPlural ? noun : "\(FieldWording.article(for: noun)) \(noun)"
    }

    /// One of the things: "category" for "Categories", "assignee" for "Assignees".
    public var singular: String {
        guard isPlural else { return noun }
        if noun.hasSuffix("ies") { return noun.dropLast(3) + "y" }
        return String(noun.dropLast())
    }

    /// Several of the things: "categories".
    public var plural: String {
        if isPlural { return noun }
        if noun.hasSuffix("y"), let before = noun.dropLast().last, !"aeiou".contains(before) {
            return noun.dropLast() + "ies"
        }
        if noun.hasSuffix("s") || noun.hasSuffix("x") || noun.hasSuffix("ch") || noun.hasSuffix("sh") {
            return noun + "es"
        }
        return noun + "s"
    }

    /// "1 category", "3 categories".
    public func count(_ n: Int) -> String { Words.count(n, singular, plural: plural) }

    /// Lower-cases each word unless it is an acronym ("URL") or mixed case ("iOS", "eBay").
    public static func lowercased(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            let letters = word.filter(\.isLetter)
            if letters.count >= 2, letters.allSatisfy(\.isUppercase) { return String(word) }
            if word.dropFirst().contains(where: \.isUppercase) { return String(word) }
            return word.lowercased()
        }.joined(separator: " ")
    }

    /// "a" or "an" by the first sound: "an estimate", "a user", "an hour", "an SKU", "a PNG".
    public static func article(for word: String) -> String {
        guard let first = word.first else { return "a" }
        let firstWord = word.split(separator: " ").first.map(String.init) ?? word
        let letters = firstWord.filter(\.isLetter)
        if letters.count >= 2, letters.allSatisfy(\.isUppercase) {
            // Acronyms are read letter by letter: "an SKU", "an MP4", "a PNG".
            return "AEFHILMNORSX".contains(first) ? "an" : "a"
        }
        let lower = firstWord.lowercased()
        for prefix in ["uni", "use", "usu", "ura", "eu", "one", "once"] where lower.hasPrefix(prefix) { return "a" }
        for prefix in ["hour", "honest", "honour", "heir"] where lower.hasPrefix(prefix) { return "an" }
        guard let initial = lower.first else { return "a" }
        return "aeiou".contains(initial) ? "an" : "a"
    }
}

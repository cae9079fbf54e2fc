import FormModel
import FormPages
import Hummingbird

/// The languages a request asks for, most wanted first (`../shared/spec/languages.md`, "Which
/// language"): the language switch's `lang` cookie, then `Accept-Language`. A form's page takes
/// the first of its own languages they find (``FormVersions/language(of:for:)``), else its default.
enum LanguageChoice {
    /// The cookie the language switch sets.
    static let cookie = "lang"

    static func ranges(_ request: Request) -> [String] {
        var ranges: [String] = []
        if let chosen = request.cookies[cookie]?.value, let tag = LanguageTags.canonical(chosen) { ranges.append(tag) }
        return ranges + LanguageTags.accepted(request.headers[.acceptLanguage])
    }

    /// The `lang` cookie keeping a switch's choice for a year, for every page of the site.
    static func cookie(_ tag: String, policy: CookiePolicy) -> String {
        "\(cookie)=\(tag); Max-Age=31536000; Path=/; SameSite=Lax" + (policy.secure ? "; Secure" : "")
    }

    /// The language a form sent with its language switch (``InputName/language``) asks for, as a
    /// tag; nil when it was sent for anything else.
    static func switched(_ received: ReceivedSubmission) -> String? {
        received.control(InputName.language).flatMap(LanguageTags.canonical)
    }
}

import Testing

@testable import FormModel

@Suite("Language tags")
struct LanguageTagsTests {
    @Test("tags are written in their usual case; text that is no tag is none")
    func canonical() {
        #expect(LanguageTags.canonical("de-ch") == "de-CH")
        #expect(LanguageTags.canonical("ZH_hant_tw") == "zh-Hant-TW")
        #expect(LanguageTags.canonical("en") == "en")
        #expect(LanguageTags.canonical("es-419") == "es-419")
        #expect(LanguageTags.canonical("") == nil)
        #expect(LanguageTags.canonical("en--US") == nil)
        #expect(LanguageTags.canonical("english language") == nil)
    }

    @Test("Accept-Language is read most wanted first; q=0 and * are left out")
    func accepted() {
        #expect(LanguageTags.accepted("de-CH, fr;q=0.5, en;q=0.8, *;q=0.1, it;q=0") == ["de-CH", "en", "fr"])
        #expect(LanguageTags.accepted(nil) == [])
        #expect(LanguageTags.accepted("no language here;;, ;q=1") == [])
    }

    @Test("RFC 4647 lookup: de-CH finds de; the first range that finds one wins")
    func lookup() {
        #expect(LanguageTags.lookup(["de-CH"], in: ["en", "de"]) == "de")
        #expect(LanguageTags.lookup(["fr-CA", "de"], in: ["en", "de", "fr"]) == "fr")
        #expect(LanguageTags.lookup(["zh-Hant-x-private"], in: ["zh-Hant", "zh"]) == "zh-Hant")
        #expect(LanguageTags.lookup(["sw"], in: ["en", "de"]) == nil)
        #expect(LanguageTags.lookup(["EN-gb"], in: ["en"]) == "en")
    }

    @Test("an XForm's language names are placed: by the tag in brackets, as a tag, or by their English name")
    func xformNames() {
        #expect(LanguageTags.tag(ofLanguageNamed: "English (en)") == "en")
        #expect(LanguageTags.tag(ofLanguageNamed: "Français (fr)") == "fr")
        #expect(LanguageTags.tag(ofLanguageNamed: "French") == "fr")
        #expect(LanguageTags.tag(ofLanguageNamed: "Swahili") == "sw")
        #expect(LanguageTags.tag(ofLanguageNamed: "hi") == "hi")
        #expect(LanguageTags.tag(ofLanguageNamed: "default") == nil)
        #expect(LanguageTags.ownName(of: "de") == "Deutsch")
        #expect(LanguageTags.ownName(of: "fr") == "Français")
    }
}

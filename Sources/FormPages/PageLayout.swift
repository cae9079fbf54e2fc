import Mustache

/// What `layout.mustache` reads of every page: the `<title>`, the classes on `<html>` and
/// `<body>`, and whether the admin pages' own stylesheet is wanted.
package struct PageLayout: KeyPathContext {
    let title: PageText
    let htmlClass: PageText
    /// The `media` of the regular-width stylesheet's link (``LayoutMode/regularMedia``).
    let regularMedia: PageText
    let bodyClass: String
    /// Only admin pages load `admin.css`, so the create view does not carry their styles.
    let adminStyles: Bool
    /// Only the pages of a form with item lists load `items.css` and `items-regular.css`.
    let itemStyles: Bool
    /// Only the pages of a form whose labels or hints are formatted load `rich.css`.
    let richStyles: Bool
    /// Only the create and edit views of a form with several languages load `languages.css`.
    let languageStyles: Bool

    package static let templateKeys: [String: PartialKeyPath<PageLayout> & Sendable] = [
        "title": \.title, "htmlClass": \.htmlClass, "regularMedia": \.regularMedia, "bodyClass": \.bodyClass,
        "adminStyles": \.adminStyles, "itemStyles": \.itemStyles, "richStyles": \.richStyles,
        "languageStyles": \.languageStyles,
    ]

    /// - Parameters:
    ///   - title: the whole `<title>`, site name included.
    ///   - htmlClass: the classes on `<html>`; the layout's (``LayoutMode``) unless a slot sets it.
    ///   - regularMedia: when the regular-width stylesheet applies; the viewport decides unless a slot sets it.
    ///   - body: the page's kind, for the `fw-body--<body>` class.
    ///   - items: whether the page shows item lists (their stylesheets are linked).
    ///   - rich: whether the page shows formatted labels or hints (``RichTextMarkup``).
    ///   - languages: whether the page has a form's language switch.
    package init(
        title: PageText, htmlClass: PageText = "fw-page fw-layout-auto",
        regularMedia: PageText = PageText(LayoutMode.auto.regularMedia), body: String, items: Bool = false,
        rich: Bool = false, languages: Bool = false
    ) {
        self.title = title
        self.htmlClass = htmlClass
        self.regularMedia = regularMedia
        bodyClass = "fw-body fw-body--\(body)"
        adminStyles = body == "admin"
        itemStyles = items
        richStyles = rich
        languageStyles = languages
    }
}

/// The template context of a whole page: a plain struct whose stored properties are the names
/// the templates read (swift-mustache finds them by `Mirror`; see also ``KeyPathContext``), with
/// ``PageText`` for any text that did not come from the code. Optional properties are avoided:
/// Mustache would look a nil one up in the enclosing contexts; absent text is ``PageText/none``,
/// an absent part an empty array.
package protocol PageContext {
    var layout: PageLayout { get }
}

/// A template context that names its values in a table of key paths, so swift-mustache reads
/// them without `Mirror`: a `Mirror` lookup reflects every stored property (and resolves its
/// type) at every name, which made building a plan several times slower. The contexts of pages
/// built into plans use it; the table lists every stored property (a test checks it).
package protocol KeyPathContext: MustacheParent {
    static var templateKeys: [String: PartialKeyPath<Self> & Sendable] { get }
}

extension KeyPathContext {
    package func child(named name: String) -> Any? {
        guard let path = Self.templateKeys[name] else { return nil }
        return self[keyPath: path]
    }
}

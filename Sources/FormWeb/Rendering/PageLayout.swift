/// What `layout.mustache` reads of every page: the `<title>` and the classes on `<html>` and `<body>`.
struct PageLayout {
    let title: PageText
    let htmlClass: PageText
    let bodyClass: String

    /// - Parameters:
    ///   - title: the whole `<title>`, site name included.
    ///   - htmlClass: the classes on `<html>`; the layout's (``LayoutMode``) unless a slot sets it.
    ///   - body: the page's kind, for the `fw-body--<body>` class.
    init(title: PageText, htmlClass: PageText = "fw-page fw-layout-auto", body: String) {
        self.title = title
        self.htmlClass = htmlClass
        bodyClass = "fw-body fw-body--\(body)"
    }
}

/// The template context of a whole page: a plain struct whose stored properties are the names
/// the templates read (swift-mustache finds them by `Mirror`), with ``PageText`` for any text
/// that did not come from the code. Optional properties are avoided: Mustache would look a nil
/// one up in the enclosing contexts; absent text is ``PageText/none``, an absent part an empty array.
protocol PageContext {
    var layout: PageLayout { get }
}

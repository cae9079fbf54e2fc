import FormModel

/// An error shown for one field: in the summary at the top and under the field's cell.
public struct FieldError: Sendable, Hashable {
    /// The field's name.
    public var field: String
    /// What to do, e.g. "Enter a title".
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// Which layout a page uses: the viewport decides (`auto`), or `?layout=` forces one.
public enum LayoutMode: String, Sendable, Hashable, CaseIterable {
    case auto
    case compact
    case regular

    /// The class on `<html>` that the stylesheet keys on.
    public var htmlClass: String { "fw-layout-\(rawValue)" }

    /// `?layout=compact|regular`; anything else lets the viewport decide.
    public init(query value: String?) {
        self = value.flatMap { LayoutMode(rawValue: $0) } ?? .auto
    }
}

/// Everything that differs between two requests for the same create view.
public struct RenderState: Sendable {
    /// Current values by input name: a field's name, or `<name>.hours` / `<name>.minutes` for a
    /// duration's parts. Several values for multiple choices.
    public var values: [String: [String]]
    /// Errors in the order they should be listed (the fields' order).
    public var errors: [FieldError]
    public var csrfToken: String
    public var layout: LayoutMode

    public init(values: [String: [String]], errors: [FieldError] = [], csrfToken: String, layout: LayoutMode = .auto) {
        self.values = values
        self.errors = errors
        self.csrfToken = csrfToken
        self.layout = layout
    }

    func firstValue(_ name: String) -> String? {
        values[name]?.first
    }

    func error(for field: String) -> FieldError? {
        errors.first { $0.field == field }
    }
}

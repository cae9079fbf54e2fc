/// A per-request hole in a render plan, and what fills it.
///
/// Slots that stand for attributes render the whole attribute with its leading space
/// (` value="…"`, ` checked`), or nothing, so the static markup around them never changes.
enum Slot: Hashable, Sendable {
    /// The class on `<html>` that picks the layout: `fw-layout-auto|compact|regular`.
    case layoutClass
    /// The media query of the regular-width stylesheet's `<link>` (``LayoutMode/regularMedia``).
    case regularMedia
    /// "Error: " before the page title when the form has errors, as screen readers hear the title first.
    case titlePrefix
    /// The hidden `_csrf` input's value.
    case csrfToken
    /// The error summary box (from `partials/error-summary`), with one link per error, or nothing.
    case errorSummary
    /// ` value="…"` for a single-value input.
    case value(field: String)
    /// A textarea's content.
    case text(field: String)
    /// ` checked` when the field's values include the option.
    case checked(field: String, option: String)
    /// ` selected` when the field's values include the option.
    case selected(field: String, option: String)
    /// ` checked` when the switch is on.
    case switchOn(field: String)
    /// Hidden inputs carrying a read-only choice's values, since its disabled controls are not submitted.
    case hiddenValues(field: String)
    /// ` value="…"` for the hours or minutes part of a duration.
    case durationPart(field: String, part: DurationPart)
    /// The error message under the cell, or nothing.
    case fieldError(field: String)
    /// ` aria-invalid="true"` when the field has an error.
    case invalid(field: String)
    /// ` aria-describedby="…"`: the static ids (hint, count) plus the error's id when there is one.
    case describedBy(field: String, ids: [String])
    /// ` fw-cell--error` on the cell when the field has an error.
    case cellState(field: String)
    /// The object's path, `/forms/{id}/{object}`: the edit form's action and the detail page's links.
    case objectPath
    /// The hidden input with the signed values of read-only fields (``SignedPrefill``), or nothing.
    case prefillSeal
    /// The hidden input with the create view's one-time token (``SubmissionToken``), or nothing.
    case submissionToken
    /// The files already received for an attachments field, listed with hidden inputs that
    /// send them back, so they are not uploaded twice.
    case files(field: String)
    /// A value on the detail page, formatted for people (attachments as thumbnails).
    case displayValue(field: String)
    /// ` hidden` on a detail row whose field has no value.
    case displayHidden(field: String)
    /// ` hidden` on a detail group none of whose fields has a value.
    case displayGroupHidden(fields: [String])
    /// The object's key information as a heading.
    case heading
    /// The list items of the parent page.
    case listItems
    /// The parent page's empty-state paragraph, when the list is empty.
    case listEmpty(text: String)
    /// "Sign in", or the account's name with a Sign out button.
    case accountBar
    /// Links to the newer and older pages of the parent page's list, when there are more.
    case pager
    /// A long value list's options in the page: the chosen values, then the matches of the search
    /// asked for without JavaScript (``RenderState/listSearches``), as radios or checkboxes.
    case longList(field: String, several: Bool, labels: OptionLabels)
    /// On an edit view, the object's stored choices that the field no longer offers
    /// (``RenderState/noLongerOffered``): `<option>`s of a select, or radios or checkboxes.
    case noLongerOffered(field: String, control: KeptChoiceControl)
}

/// How a choice no longer offered is shown: like the field's own options.
enum KeptChoiceControl: Hashable, Sendable {
    case option
    case radio
    case checkbox
}

/// The two inputs of a duration.
enum DurationPart: String, Hashable, Sendable {
    case hours
    case minutes
}

import FormModel
import NIOCore

/// The prepared create (or edit) view of one form version: the form made ready for its
/// submissions (``PreparedForm``, which the use cases take) and the page's render plan. Its
/// members read through to the prepared form: `view.schema`, `view.readOnlyFields`.
@dynamicMemberLookup
package struct FormView: Sendable {
    package let form: PreparedForm
    let plan: RenderPlan

    package init(form: PreparedForm, plan: RenderPlan) {
        self.form = form
        self.plan = plan
    }

    package subscript<T>(dynamicMember path: KeyPath<PreparedForm, T>) -> T {
        form[keyPath: path]
    }

    /// The page for one request.
    package func render(_ state: RenderState) -> ByteBuffer {
        plan.render(state)
    }
}

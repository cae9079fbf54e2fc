import FormModel
import NIOCore
import Synchronization

/// The prepared create (or edit) view of one form version: the form made ready for its
/// submissions (``PreparedForm``, which the use cases take) and the page's render plan. Its
/// members read through to the prepared form: `view.schema`, `view.readOnlyFields`.
///
/// A class: a view is handed from the plan cache to each request, and a copy of a struct this
/// size retained every array and string in it, a tenth of a create view's reference counting.
@dynamicMemberLookup
package final class FormView: Sendable {
    package let form: PreparedForm
    let plan: RenderPlan
    /// The plan specialised for the states of fresh views shown lately (``RenderPlan/specialized(for:)``).
    private let fresh = FreshPlans()

    package init(form: PreparedForm, plan: RenderPlan) {
        self.form = form
        self.plan = plan
    }

    package subscript<T>(dynamicMember path: KeyPath<PreparedForm, T>) -> T {
        form[keyPath: path]
    }

    /// The page for one request: a fresh view's from the plan specialised for its values.
    package func render(_ state: RenderState) -> ByteBuffer {
        guard let key = state.freshKey else { return plan.render(state) }
        return fresh.plan(for: key) { plan.specialized(for: state) }.render(state)
    }
}

/// A few plans specialised for fresh views' values: the initial values with today's date, and
/// those of links that prefill fields. Bounded: past ``capacity`` the oldest go all at once.
private final class FreshPlans: Sendable {
    static let capacity = 8
    private let plans = Mutex<[RenderState.FreshKey: RenderPlan]>([:])

    func plan(for key: RenderState.FreshKey, make: () -> RenderPlan) -> RenderPlan {
        if let plan = plans.withLock({ $0[key] }) { return plan }
        let plan = make()
        plans.withLock { plans in
            if plans.count >= Self.capacity { plans.removeAll() }
            plans[key] = plan
        }
        return plan
    }
}

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
    /// The pages fresh create views start as, lately (``startPage(_:make:)``).
    private let starts = Mutex<[StartKey: StartPage]>([:])

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

    /// The page a fresh create view starts as, for a form whose fresh views start alike
    /// (``PreparedForm/startsAlike``): made by `make` once per key, then kept (a few: past
    /// ``FreshPlans/capacity`` the oldest go all at once). The state and the plan specialised
    /// for it are the version's; a request adds its tokens (``render(_:csrfToken:submissionToken:)``).
    package func startPage(_ key: StartKey, make: () async -> (state: RenderState, seal: String?)) async -> StartPage {
        if let page = starts.withLock({ $0[key] }) { return page }
        let (state, seal) = await make()
        let page = StartPage(state: state, seal: seal, plan: plan.specialized(for: state))
        starts.withLock { pages in
            if pages.count >= FreshPlans.capacity { pages.removeAll() }
            pages[key] = page
        }
        return page
    }

    /// A fresh create view's page for one request: the start page with its tokens.
    package func render(_ start: StartPage, csrfToken: String, submissionToken: String) -> ByteBuffer {
        var state = start.state
        state.csrfToken = csrfToken
        state.submissionToken = submissionToken
        state.prefillSeal = start.seal
        return start.plan.render(state)
    }
}

/// What sets apart the pages fresh create views of one version start as: the layout asked for
/// and the clock's reading (to the minute) when a field starts with it.
package struct StartKey: Hashable, Sendable {
    package var layout: LayoutMode
    package var clock: ClockReading?

    package init(layout: LayoutMode, clock: ClockReading?) {
        self.layout = layout
        self.clock = clock
    }
}

/// The page a fresh create view starts as: its state (values, what the rules made of them), the
/// seal of its read-only values, and the plan specialised for them.
package final class StartPage: Sendable {
    package let state: RenderState
    package let seal: String?
    let plan: RenderPlan

    init(state: RenderState, seal: String?, plan: RenderPlan) {
        self.state = state
        self.seal = seal
        self.plan = plan
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

/// A per-request hole in a render plan: one small type per kind of hole, which writes what a
/// request's ``RenderState`` puts there, with markup only from ``SlotMarkup`` (the templates in
/// `Templates/slots/`) and every value escaped.
///
/// Slots that stand for attributes write the whole attribute with its leading space
/// (` value="…"`, ` checked`), or nothing, so the static markup around them never changes.
/// The slot types are in `Slots/`; templates name them through ``FieldSlots`` and the page
/// contexts.
protocol Slot: Hashable, Sendable {
    func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer)

    /// Whether two requests that show the same values write different things here: the
    /// viewer's CSRF token, a one-time token. A plan specialised for some values
    /// (``RenderPlan/specialized(for:)``) keeps only these as slots.
    static var differsPerRequest: Bool { get }
}

extension Slot {
    static var differsPerRequest: Bool { false }
}

/// A slot of any kind, as a plan holds it: the same slot (kind and values) is the same hole.
struct PlanSlot: Hashable, Sendable {
    let slot: any Slot

    init(_ slot: any Slot) {
        self.slot = slot
    }

    static func == (a: PlanSlot, b: PlanSlot) -> Bool { AnyHashable(a.slot) == AnyHashable(b.slot) }

    func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(slot)) }
}

/// The registry of a plan's slots.
typealias SlotRegistry = SentinelRegistry<PlanSlot>

extension SentinelRegistry where Hole == PlanSlot {
    /// The sentinel for a slot; the same slot always gets the same sentinel.
    func sentinel(_ slot: some Slot) -> String {
        sentinel(PlanSlot(slot))
    }
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

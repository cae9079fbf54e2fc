import FormModel
import Foundation
import NIOCore

/// The prepared create (or edit) view of one form version: its render plan, the rules for
/// initial values, and the schema it was built from, so a POST needs no parsing.
public struct CreateView: Sendable {
    public let schema: FormSchema
    public let version: Int
    public let mode: FormMode
    /// The form's lists revision the view was built with (its uploaded options).
    public internal(set) var listsRevision = 0
    /// Where `today` and `now` are read (`FIELDWORK_TIME_ZONE`, else the server's zone).
    public internal(set) var timeZone: TimeZone = .current
    let plan: RenderPlan
    let initialRules: [InitialValueRule]
    /// Fields the user cannot change in this mode; the server supplies their values.
    public let readOnlyFields: [String]

    init(schema: FormSchema, version: Int, mode: FormMode, plan: RenderPlan, initialRules: [InitialValueRule]) {
        self.schema = schema
        self.version = version
        self.mode = mode
        self.plan = plan
        self.initialRules = initialRules
        self.readOnlyFields = schema.allFields.filter(mode.isReadOnly).map(\.name)
    }

    public var formID: String { schema.id }

    /// The values of the read-only fields among `values`, what the create view seals.
    public func readOnlyValues(_ values: [String: [String]]) -> [String: [String]] {
        var sealed: [String: [String]] = [:]
        for name in readOnlyFields {
            if let given = values[name] { sealed[name] = given }
        }
        return sealed
    }

    /// The page for one request.
    public func render(_ state: RenderState) -> ByteBuffer {
        plan.render(state)
    }

    /// Today in the view's time zone, for `default="today"` when a submission is checked.
    public func today(now: Date = Date()) -> LocalDate? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        return LocalDate(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)
    }

    /// The values a new, empty form starts with: the query for `prefill="query"` fields, else the
    /// defaults, with `today` / `now` read from the clock in the given time zone.
    public func initialValues(query: [String: [String]], now: Date = Date(), timeZone: TimeZone? = nil)
        -> [String: [String]]
    {
        let timeZone = timeZone ?? self.timeZone
        var values: [String: [String]] = [:]
        var clock: ClockValues?
        for rule in initialRules {
            if rule.prefillFromQuery, let given = query[rule.name]?.filter({ !$0.isEmpty }), !given.isEmpty {
                values[rule.name] = rule.several ? given : [given[0]]
                continue
            }
            guard !rule.defaults.isEmpty else { continue }
            if rule.kind.isTemporal, rule.defaults.count == 1, let word = rule.defaults.first,
                word == "today" || word == "now"
            {
                if clock == nil { clock = ClockValues(now: now, timeZone: timeZone) }
                values[rule.name] = [clock!.value(for: rule.kind)]
            } else {
                values[rule.name] = rule.defaults
            }
        }
        return values
    }
}

/// Where one field's initial value comes from.
struct InitialValueRule: Sendable {
    var name: String
    var kind: FieldKind
    var defaults: [String]
    var prefillFromQuery: Bool
    var several: Bool

    init(_ field: Field) {
        name = field.name
        kind = field.kind
        defaults = field.defaultValues
        prefillFromQuery = field.prefill == .query
        several = field.takesSeveralValues
    }
}

/// Today and now in the forms' input formats, computed once per request at most.
struct ClockValues {
    let date: String
    let time: String

    init(now: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: now)
        date = String(format: "%04d-%02d-%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1)
        time = String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    func value(for kind: FieldKind) -> String {
        switch kind {
        case .time: time
        case .datetime: "\(date)T\(time)"
        default: date
        }
    }
}

import FormModel
import Foundation
import NIOCore

/// The prepared create view of one form version: its render plan and the rules for initial values.
public struct CreateView: Sendable {
    public let formID: String
    public let version: Int
    let plan: RenderPlan
    let initialRules: [InitialValueRule]

    /// The page for one request.
    public func render(_ state: RenderState) -> ByteBuffer {
        plan.render(state)
    }

    /// The values a new, empty form starts with: the query for `prefill="query"` fields, else the
    /// defaults, with `today` / `now` read from the clock in the given time zone.
    public func initialValues(query: [String: [String]], now: Date = Date(), timeZone: TimeZone = .current)
        -> [String: [String]]
    {
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

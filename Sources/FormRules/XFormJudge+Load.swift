import FormModel
import FormXML
import Foundation

/// What an XForm's judge does beside judging: the first-load `setvalue`s of a new instance and
/// the values they give, and the import's check that no expression needs more than a few
/// milliseconds on the form's defaults.
extension XFormJudge {
    /// The most libxml2 operations one evaluation may take (a few milliseconds): an expression
    /// that needs more on the form's defaults is refused at import (``expressionsOverLimit(host:)``).
    package static let operationLimit = 100_000

    /// The expressions that exceed the operation limit when each is evaluated once at its node
    /// on the form's defaults (relevance aside), with the node they are bound to.
    package func expressionsOverLimit(host: any XPathHost) -> [(owner: String, expression: XFormExpression)] {
        let instance = template.copy()
        let evaluator = XPathEvaluator(
            program: program, instance: instance, secondary: secondary, host: host,
            operationLimit: Self.operationLimit)
        var over: [(String, XFormExpression)] = []
        for step in steps {
            guard let node = instance.node(at: step.path), let bind = step.node.bind else { continue }
            let rules: [(Int?, XFormExpression?)] = [
                (step.relevant, bind.relevant), (step.calculate, bind.calculate), (step.readonly, bind.readonly),
                (step.required, bind.required), (step.constraint, bind.constraint),
                (step.itemset, step.node.itemset?.nodeset),
            ]
            for case (let index?, let expression?) in rules {
                do {
                    _ = try evaluator.evaluate(index, at: node)
                } catch  where error.code == XPathEvaluationError.operationLimitCode {
                    over.append((step.node.path, expression))
                } catch {}
            }
        }
        return over
    }

    /// Runs the first-load `setvalue`s on a new instance, in document order.
    func loadFirst(_ instance: XPathDocument, evaluator: XPathEvaluator, errors: inout [String]) {
        for action in firstLoad {
            guard let node = instance.node(at: action.path) else { continue }
            guard let index = action.value else {
                node.text = action.literal
                continue
            }
            do {
                node.text = Self.stored(try evaluator.evaluate(index, at: node), type: action.node?.type)
            } catch {
                errors.append("\(program.expressions[index]) at \(node.path): \(error.message)")
            }
        }
    }

    /// What a new instance's fields hold once the form is shown: the values the first-load
    /// `setvalue`s give the fields they target, by field name.
    package func firstLoadValues(host: any XPathHost) -> [String: String] {
        guard firstLoad.contains(where: { $0.node?.field != nil }) else { return [:] }
        let instance = template.copy()
        let evaluator = XPathEvaluator(program: program, instance: instance, secondary: secondary, host: host)
        var errors: [String] = []
        loadFirst(instance, evaluator: evaluator, errors: &errors)
        var values: [String: String] = [:]
        for action in firstLoad {
            guard let field = action.node?.field, let node = instance.node(at: action.path) else { continue }
            values[field] = node.text
        }
        return values
    }

    /// A calculated value as stored, cast to the bind's type: a boolean as `true`/`false`, a
    /// number into a date type as that many days since 1970-01-01.
    static func stored(_ value: XPathValue, type: String?) -> String {
        switch value {
        case .boolean(let flag): return flag ? "true" : "false"
        case .number(let number):
            guard number.isFinite else { return "" }
            if type == "date" {
                let date = Date(timeIntervalSince1970: (number.rounded(.down)) * 86_400)
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: "UTC")!
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
            }
            return value.stringValue
        case .string, .nodes: return value.stringValue
        }
    }
}

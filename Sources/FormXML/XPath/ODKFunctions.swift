internal import CLibXML2
import Foundation

/// The ODK vocabulary of functions, once: every function an ODK expression may call here, with
/// how many arguments it takes, the type of its result when that is fixed, and how libxml2 gets
/// it (its own as it is, or ours registered on each evaluation context, in place of its own
/// where ODK's differs). The evaluator registers exactly what this table says
/// (`XPathFunctionLibrary`), its calls check their argument counts against it (`XPathCall`), and
/// the importer's checks of a form's calls and its typed date rewrite are made from it; a test
/// evaluates every entry at the edges of its arity.
///
/// Arities are ODK's (xforms-mapping.md, "Functions"): `round` takes 2, `concat` 1, `join` at
/// least a separator and one more, `string-length` exactly 1.
public enum ODKFunctions {
    /// The type of a function's result, when it is fixed.
    public enum Result: Sendable, Hashable {
        case string
        case number
        case boolean
        case date
        case dateTime
    }

    /// One function.
    public struct Function: Sendable {
        public let name: String
        /// Nil, or JavaRosa's (`jr:itext`, `jr:choice-name`).
        public let namespaceURI: String?
        /// How many arguments it takes; `Int.max` as the upper bound: no maximum.
        public let arguments: ClosedRange<Int>
        public let result: Result?
        /// Ours, registered on each context; nil: libxml2's own, left as it is.
        let implementation: Implementation?

        /// `name`, or `jr:name` for a JavaRosa one: how messages and ``arguments(of:)`` name it.
        public var qualifiedName: String { namespaceURI == nil ? name : "jr:" + name }
    }

    /// A function of ours: the callback, and whether it replaces a libxml2 built-in of the same
    /// name (which must be removed first).
    struct Implementation: @unchecked Sendable {
        let function: xmlXPathFunction
        let replacesBuiltIn: Bool
    }

    /// The arguments `qualifiedName` takes, for the checks of a call (every name in the table has
    /// one; an unknown name takes none).
    static func arguments(of qualifiedName: String) -> ClosedRange<Int> {
        byName[qualifiedName]?.arguments ?? 0...0
    }

    private static let byName: [String: Function] = Dictionary(
        all.map { ($0.qualifiedName, $0) }, uniquingKeysWith: { first, _ in first })

    private static let any = Int.max

    private static func builtIn(_ name: String, _ arguments: ClosedRange<Int>, _ result: Result?) -> Function {
        Function(name: name, namespaceURI: nil, arguments: arguments, result: result, implementation: nil)
    }

    private static func ours(
        _ name: String, jr: Bool = false, replaces: Bool = false, _ arguments: ClosedRange<Int>, _ result: Result?,
        _ function: xmlXPathFunction
    ) -> Function {
        Function(
            name: name, namespaceURI: jr ? XPathNamespaces.javaRosa : nil, arguments: arguments, result: result,
            implementation: Implementation(function: function, replacesBuiltIn: replaces))
    }

    // A closure literal that captures nothing converts to a C function pointer; each one names
    // its function for `XPathCall.run`, which reads the arity here.
    /// Every function, libxml2's own first.
    public static let all: [Function] = [
        // XPath 1.0's core library (section 4), as libxml2 implements it.
        builtIn("last", 0...0, .number), builtIn("count", 1...1, .number), builtIn("sum", 1...1, .number),
        builtIn("floor", 1...1, .number), builtIn("ceiling", 1...1, .number), builtIn("id", 1...1, nil),
        builtIn("local-name", 0...1, .string), builtIn("namespace-uri", 0...1, .string),
        builtIn("name", 0...1, .string), builtIn("string", 0...1, .string),
        builtIn("normalize-space", 0...1, .string), builtIn("starts-with", 2...2, .boolean),
        builtIn("contains", 2...2, .boolean), builtIn("substring-before", 2...2, .string),
        builtIn("substring-after", 2...2, .string), builtIn("substring", 2...3, .string),
        builtIn("translate", 3...3, .string), builtIn("boolean", 1...1, .boolean), builtIn("not", 1...1, .boolean),
        builtIn("lang", 1...1, .boolean), builtIn("true", 0...0, .boolean), builtIn("false", 0...0, .boolean),
        // Control, instances, translations.
        ours("if", 3...3, nil) { XPathCall.run($0, $1, "if", XPathFunctions.choose) },
        ours("coalesce", 2...2, nil) { XPathCall.run($0, $1, "coalesce", XPathFunctions.coalesce) },
        ours("once", 1...1, nil) { XPathCall.run($0, $1, "once", XPathFunctions.once) },
        ours("current", 0...0, nil) { XPathCall.run($0, $1, "current", XPathFunctions.current) },
        ours("instance", 1...1, nil) { XPathCall.run($0, $1, "instance", XPathFunctions.instance) },
        ours("itext", jr: true, 1...1, .string) { XPathCall.run($0, $1, "jr:itext", XPathFunctions.itext) },
        ours("choice-name", jr: true, 2...2, .string) {
            XPathCall.run($0, $1, "jr:choice-name", XPathFunctions.choiceName)
        },
        // Strings.
        ours("concat", replaces: true, 0...any, .string) { XPathCall.run($0, $1, "concat", XPathFunctions.concat) },
        ours("join", 1...any, .string) { XPathCall.run($0, $1, "join", XPathFunctions.join) },
        ours("substr", 2...3, .string) { XPathCall.run($0, $1, "substr", XPathFunctions.substr) },
        ours("ends-with", 2...2, .boolean) { XPathCall.run($0, $1, "ends-with", XPathFunctions.endsWith) },
        ours("string-length", replaces: true, 1...1, .number) { ctxt, nargs in
            // libxml2's own (characters, not UTF-16 units), once the argument the ODK spec
            // requires is there.
            if XPathCall.accepts(ctxt, nargs, "string-length") { xmlXPathStringLengthFunction(ctxt, 1) }
        },
        ours("boolean-from-string", 1...1, .boolean) {
            XPathCall.run($0, $1, "boolean-from-string", XPathFunctions.booleanFromString)
        },
        ours("uuid", 0...1, .string) { XPathCall.run($0, $1, "uuid", XPathFunctions.uuid) },
        ours("regex", 2...2, .boolean) { XPathCall.run($0, $1, "regex", XPathFunctions.regex) },
        // Numbers.
        ours("number", replaces: true, 0...1, .number) { XPathCall.run($0, $1, "number", XPathFunctions.number) },
        ours("round", replaces: true, 1...2, .number) { XPathCall.run($0, $1, "round", XPathFunctions.round) },
        ours("int", 1...1, .number) { XPathCall.run($0, $1, "int", XPathFunctions.int) },
        ours("min", 1...any, .number) { XPathCall.run($0, $1, "min") { XPathFunctions.extreme($0, largest: false) } },
        ours("max", 1...any, .number) { XPathCall.run($0, $1, "max") { XPathFunctions.extreme($0, largest: true) } },
        ours("random", 0...0, .number) { XPathCall.run($0, $1, "random", XPathFunctions.random) },
        ours("pow", 2...2, .number) {
            XPathCall.run($0, $1, "pow") { .number(Foundation.pow($0.number(0), $0.number(1))) }
        },
        ours("abs", 1...1, .number) { XPathCall.run($0, $1, "abs") { .number(Swift.abs($0.number(0))) } },
        ours("log", 1...1, .number) { XPathCall.run($0, $1, "log") { .number(Foundation.log($0.number(0))) } },
        ours("log10", 1...1, .number) { XPathCall.run($0, $1, "log10") { .number(Foundation.log10($0.number(0))) } },
        ours("exp", 1...1, .number) { XPathCall.run($0, $1, "exp") { .number(Foundation.exp($0.number(0))) } },
        ours("exp10", 1...1, .number) { XPathCall.run($0, $1, "exp10") { .number(Foundation.pow(10, $0.number(0))) } },
        ours("sqrt", 1...1, .number) { XPathCall.run($0, $1, "sqrt") { .number($0.number(0).squareRoot()) } },
        ours("pi", 0...0, .number) { XPathCall.run($0, $1, "pi") { _ in .number(Double.pi) } },
        ours("sin", 1...1, .number) { XPathCall.run($0, $1, "sin") { .number(Foundation.sin($0.number(0))) } },
        ours("cos", 1...1, .number) { XPathCall.run($0, $1, "cos") { .number(Foundation.cos($0.number(0))) } },
        ours("tan", 1...1, .number) { XPathCall.run($0, $1, "tan") { .number(Foundation.tan($0.number(0))) } },
        ours("asin", 1...1, .number) { XPathCall.run($0, $1, "asin") { .number(Foundation.asin($0.number(0))) } },
        ours("acos", 1...1, .number) { XPathCall.run($0, $1, "acos") { .number(Foundation.acos($0.number(0))) } },
        ours("atan", 1...1, .number) { XPathCall.run($0, $1, "atan") { .number(Foundation.atan($0.number(0))) } },
        ours("atan2", 2...2, .number) {
            XPathCall.run($0, $1, "atan2") { .number(Foundation.atan2($0.number(0), $0.number(1))) }
        },
        // Selects and checklists.
        ours("selected", 2...2, .boolean) { XPathCall.run($0, $1, "selected", XPathFunctions.selected) },
        ours("count-selected", 1...1, .number) {
            XPathCall.run($0, $1, "count-selected", XPathFunctions.countSelected)
        },
        ours("selected-at", 2...2, .string) { XPathCall.run($0, $1, "selected-at", XPathFunctions.selectedAt) },
        ours("count-non-empty", 1...1, .number) {
            XPathCall.run($0, $1, "count-non-empty", XPathFunctions.countNonEmpty)
        },
        ours("position", replaces: true, 0...1, .number) { ctxt, nargs in
            // libxml2's own without an argument: the context position.
            guard nargs != 0 else {
                xmlXPathPositionFunction(ctxt, 0)
                return
            }
            XPathCall.run(ctxt, nargs, "position", XPathFunctions.position)
        },
        ours("indexed-repeat", 3...any, nil) {
            XPathCall.run($0, $1, "indexed-repeat", XPathFunctions.indexedRepeat)
        },
        ours("checklist", 2...any, .boolean) { XPathCall.run($0, $1, "checklist", XPathFunctions.checklist) },
        ours("weighted-checklist", 2...any, .boolean) {
            XPathCall.run($0, $1, "weighted-checklist", XPathFunctions.weightedChecklist)
        },
        // Dates and times.
        ours("today", 0...0, .date) { XPathCall.run($0, $1, "today", XPathFunctions.today) },
        ours("now", 0...0, .dateTime) { XPathCall.run($0, $1, "now", XPathFunctions.now) },
        ours("date", 1...1, .date) { XPathCall.run($0, $1, "date", XPathFunctions.date) },
        ours("date-time", 1...1, .dateTime) { XPathCall.run($0, $1, "date-time", XPathFunctions.dateTime) },
        ours("decimal-date-time", 1...1, .number) {
            XPathCall.run($0, $1, "decimal-date-time", XPathFunctions.decimalDateTime)
        },
        ours("decimal-time", 1...1, .number) { XPathCall.run($0, $1, "decimal-time", XPathFunctions.decimalTime) },
        ours("format-date", 2...2, .string) {
            XPathCall.run($0, $1, "format-date") { XPathFunctions.formatDate($0, withTime: false) }
        },
        ours("format-date-time", 2...2, .string) {
            XPathCall.run($0, $1, "format-date-time") { XPathFunctions.formatDate($0, withTime: true) }
        },
    ]
}

import FormXML

/// The functions an imported form may call, as the importer checks them: the evaluator's own
/// table (`ODKFunctions` in FormXML: XPath 1.0's core library as libxml2 implements it and the
/// ODK functions of xforms-mapping.md "Functions", with ODK's arities) seen by name, namespace and
/// result type. A call of anything else cannot be evaluated: its rule is not enforced, and the
/// import report says so.
enum XPathFunctionTable {
    /// The JavaRosa namespace of `jr:choice-name` and `jr:itext`.
    static let javaRosaNamespace = XPathNamespaces.javaRosa

    /// How many arguments a function takes.
    struct Arity: Hashable, Sendable {
        var minimum: Int
        /// Nil: any number from `minimum` on.
        var maximum: Int?

        /// The evaluator's range (`Int.max` as its upper bound: no maximum).
        init(_ range: ClosedRange<Int>) {
            self.init(minimum: range.lowerBound, maximum: range.upperBound == Int.max ? nil : range.upperBound)
        }

        init(minimum: Int, maximum: Int?) {
            self.minimum = minimum
            self.maximum = maximum
        }

        func allows(_ count: Int) -> Bool { count >= minimum && maximum.map { count <= $0 } ?? true }

        /// "no arguments", "1 argument", "2 or 3 arguments", "at least 1 argument".
        var description: String {
            func count(_ n: Int) -> String { n == 1 ? "1 argument" : "\(n) arguments" }
            switch maximum {
            case nil: return "at least " + count(minimum)
            case minimum: return minimum == 0 ? "no arguments" : count(minimum)
            case let maximum? where maximum == minimum + 1: return "\(minimum) or " + count(maximum)
            case let maximum?: return "\(minimum) to \(maximum) arguments"
            }
        }
    }

    /// A function the evaluator provides: its arities and, when fixed, the type of its result
    /// (what the typed date rewrite needs: `today()` is a date, `decimal-date-time()` a number).
    struct Entry: Hashable, Sendable {
        var arity: Arity
        var result: XPathValueType?
    }

    /// The functions without a namespace, by name.
    static let core: [String: Entry] = entries(namespaceURI: nil)

    /// The functions in the JavaRosa namespace, by local name.
    static let javaRosa: [String: Entry] = entries(namespaceURI: XPathNamespaces.javaRosa)

    private static func entries(namespaceURI: String?) -> [String: Entry] {
        var table: [String: Entry] = [:]
        for function in ODKFunctions.all where function.namespaceURI == namespaceURI {
            table[function.name] = Entry(
                arity: Arity(function.arguments), result: function.result.map(XPathValueType.init))
        }
        return table
    }

    /// ODK functions the evaluator does not provide (they need data the server does not have):
    /// named in the report as ODK functions rather than as unknown ones.
    static let unsupported: Set<String> = [
        "pulldata", "digest", "randomize", "area", "distance", "version", "property",
    ]

    /// Whether the evaluator can run `call`: its prefix is resolved through `namespaces` (the
    /// prefixes the form declares; `jr` is not assumed), its name looked up, its arity checked.
    static func check(_ call: XPathFunctionCall, namespaces: [String: String]) -> XPathFunctionCheck {
        let shown = call.qualifiedName + "()"
        let found: Entry?
        if let prefix = call.prefix {
            guard let uri = namespaces[prefix] else {
                return .unknownPrefix(
                    "The prefix '\(prefix)' of \(shown) is not declared in the form: declare it with xmlns:\(prefix)")
            }
            found = uri == javaRosaNamespace ? javaRosa[call.name] : nil
        } else {
            found = core[call.name]
        }
        guard let entry = found else {
            if call.prefix == nil, unsupported.contains(call.name) {
                return .unsupported("\(shown) is not supported on the server, so this rule is not enforced")
            }
            return .unsupported("\(shown) is not a function Fieldwork knows, so this rule is not enforced")
        }
        guard entry.arity.allows(call.arity) else {
            return .wrongArity("\(shown) takes \(entry.arity.description), not \(call.arity)")
        }
        return .ok
    }
}

/// The verdict on one function call (`XPathFunctionTable.check`), with the message to show.
enum XPathFunctionCheck: Hashable, Sendable {
    case ok
    /// An ODK function the server does not evaluate, or no function it knows: a warning, and the
    /// rule that calls it is not enforced.
    case unsupported(String)
    /// A known function with a number of arguments it does not take: the expression is refused.
    case wrongArity(String)
    /// A prefix the form does not declare: the expression is refused.
    case unknownPrefix(String)

    /// What to tell the form's author; nil when the call is fine.
    var message: String? {
        switch self {
        case .ok: nil
        case .unsupported(let message), .wrongArity(let message), .unknownPrefix(let message): message
        }
    }
}

extension XPathValueType {
    /// The type of a function's result as the evaluator's table gives it.
    init(_ result: ODKFunctions.Result) {
        switch result {
        case .string: self = .string
        case .number: self = .number
        case .boolean: self = .boolean
        case .date: self = .date
        case .dateTime: self = .dateTime
        }
    }
}

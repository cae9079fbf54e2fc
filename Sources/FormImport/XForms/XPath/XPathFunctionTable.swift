/// The functions an imported form may call, as the importer knows them: XPath 1.0's core library
/// as libxml2 implements it, with the arities ODK gives some of them (`round` with 2 arguments,
/// `concat` with 1, `string-length` with exactly 1), and the ODK functions of xforms-mapping.md
/// "Functions" (the evaluator in FormXML registers the same list). A call of anything else cannot
/// be evaluated: its rule is not enforced, and the import report says so.
enum XPathFunctionTable {
    /// The JavaRosa namespace of `jr:choice-name` and `jr:itext`.
    static let javaRosaNamespace = "http://openrosa.org/javarosa"

    /// How many arguments a function takes.
    struct Arity: Hashable, Sendable {
        var minimum: Int
        /// Nil: any number from `minimum` on.
        var maximum: Int?

        static func exactly(_ n: Int) -> Arity { Arity(minimum: n, maximum: n) }
        static func range(_ minimum: Int, _ maximum: Int) -> Arity { Arity(minimum: minimum, maximum: maximum) }
        static func atLeast(_ n: Int) -> Arity { Arity(minimum: n, maximum: nil) }

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
    static let core: [String: Entry] = {
        var table: [String: Entry] = [:]
        func add(_ names: [String], _ arity: Arity, _ result: XPathValueType?) {
            for name in names { table[name] = Entry(arity: arity, result: result) }
        }
        // XPath 1.0 core library (section 4), as libxml2 implements it.
        add(["last"], .exactly(0), .number)
        add(["position"], .range(0, 1), .number)  // ODK: position(node)
        add(["count", "sum", "floor", "ceiling"], .exactly(1), .number)
        add(["round"], .range(1, 2), .number)  // ODK: round(x, digits)
        add(["id"], .exactly(1), nil)
        add(["local-name", "namespace-uri", "name", "string", "normalize-space"], .range(0, 1), .string)
        add(["number"], .range(0, 1), .number)
        add(["concat"], .atLeast(1), .string)  // ODK: one argument allowed
        add(["starts-with", "contains"], .exactly(2), .boolean)
        add(["substring-before", "substring-after"], .exactly(2), .string)
        add(["substring"], .range(2, 3), .string)
        add(["string-length"], .exactly(1), .number)  // ODK requires the argument
        add(["translate"], .exactly(3), .string)
        add(["boolean", "not", "lang"], .exactly(1), .boolean)
        add(["true", "false"], .exactly(0), .boolean)
        // ODK XForms.
        add(["if"], .exactly(3), nil)
        add(["selected"], .exactly(2), .boolean)
        add(["count-selected"], .exactly(1), .number)
        add(["selected-at"], .exactly(2), .string)
        add(["instance"], .exactly(1), nil)
        add(["current"], .exactly(0), nil)
        add(["today"], .exactly(0), .date)
        add(["now"], .exactly(0), .dateTime)
        add(["date"], .exactly(1), .date)
        add(["date-time"], .exactly(1), .dateTime)
        add(["decimal-date-time", "decimal-time"], .exactly(1), .number)
        add(["format-date", "format-date-time"], .exactly(2), .string)
        add(
            ["int", "abs", "log", "log10", "exp", "exp10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan"],
            .exactly(1), .number)
        add(["pow", "atan2"], .exactly(2), .number)
        add(["pi", "random"], .exactly(0), .number)
        add(["min", "max"], .atLeast(1), .number)
        add(["uuid"], .range(0, 1), .string)
        add(["join"], .atLeast(2), .string)
        add(["substr"], .range(2, 3), .string)
        add(["ends-with", "regex"], .exactly(2), .boolean)
        add(["coalesce"], .exactly(2), nil)
        add(["boolean-from-string"], .exactly(1), .boolean)
        add(["checklist"], .atLeast(3), .boolean)
        add(["weighted-checklist"], .atLeast(4), .boolean)
        add(["count-non-empty"], .exactly(1), .number)
        add(["once"], .exactly(1), nil)
        return table
    }()

    /// The functions in the JavaRosa namespace, by local name.
    static let javaRosa: [String: Entry] = [
        "choice-name": Entry(arity: .exactly(2), result: .string),
        "itext": Entry(arity: .exactly(1), result: .string),
    ]

    /// ODK functions the evaluator does not provide (they need data the server does not have, or
    /// repeats): named in the report as ODK functions rather than as unknown ones.
    static let unsupported: Set<String> = [
        "pulldata", "digest", "randomize", "area", "distance", "indexed-repeat", "version", "property",
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

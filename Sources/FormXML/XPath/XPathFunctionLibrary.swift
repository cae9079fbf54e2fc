internal import CLibXML2
import Foundation

/// The ODK function library: every function registered on each evaluation context, as
/// `@convention(c)` callbacks running `XPathFunctions` through `XPathCall.run`.
public enum XPathFunctionLibrary {
    /// The names this library registers, `jr:`-prefixed for those in the JavaRosa namespace.
    /// Together with `coreNames`, every function an expression may call.
    public static let names: Set<String> = Set(entries.map { $0.namespaceURI == nil ? $0.name : "jr:" + $0.name })

    /// XPath 1.0's core functions that libxml2 provides and this library leaves as they are.
    public static let coreNames: Set<String> = [
        "last", "count", "id", "local-name", "namespace-uri", "name", "string", "starts-with", "contains",
        "substring", "substring-before", "substring-after", "normalize-space", "translate", "boolean", "not",
        "true", "false", "lang", "sum", "floor", "ceiling",
    ]

    /// One function: its name, namespace (nil, or `jr`'s), whether it replaces a libxml2
    /// built-in of the same name (which must be removed first), and the callback.
    struct Entry {
        let name: String
        let namespaceURI: String?
        let replacesBuiltIn: Bool
        let function: xmlXPathFunction

        init(_ name: String, jr: Bool = false, replaces: Bool = false, _ function: xmlXPathFunction) {
            self.name = name
            self.namespaceURI = jr ? XPathNamespaces.javaRosa : nil
            self.replacesBuiltIn = replaces
            self.function = function
        }
    }

    /// Registers the library and the namespace prefixes on a new context.
    static func register(on context: xmlXPathContextPtr, namespaces: [String: String]) {
        for (prefix, uri) in namespaces {
            LibXML2.withXMLChars(prefix, uri) { _ = xmlXPathRegisterNs(context, $0, $1) }
        }
        for entry in entries {
            LibXML2.withXMLChars(entry.name) { name in
                if let uri = entry.namespaceURI {
                    _ = LibXML2.withXMLChars(uri) { xmlXPathRegisterFuncNS(context, name, $0, entry.function) }
                } else {
                    if entry.replacesBuiltIn { _ = xmlXPathRegisterFunc(context, name, nil) }
                    _ = xmlXPathRegisterFunc(context, name, entry.function)
                }
            }
        }
    }

    private static let unbounded = Int.max

    // A closure literal that captures nothing converts to a C function pointer; each one names
    // its function and argument count for `XPathCall.run`.
    static let entries: [Entry] = [
        // Control, instances, translations.
        Entry("if") { XPathCall.run($0, $1, "if", 3...3, XPathFunctions.choose) },
        Entry("coalesce") { XPathCall.run($0, $1, "coalesce", 2...2, XPathFunctions.coalesce) },
        Entry("once") { XPathCall.run($0, $1, "once", 1...1, XPathFunctions.once) },
        Entry("current") { XPathCall.run($0, $1, "current", 0...0, XPathFunctions.current) },
        Entry("instance") { XPathCall.run($0, $1, "instance", 1...1, XPathFunctions.instance) },
        Entry("itext", jr: true) { XPathCall.run($0, $1, "jr:itext", 1...1, XPathFunctions.itext) },
        Entry("choice-name", jr: true) { XPathCall.run($0, $1, "jr:choice-name", 2...2, XPathFunctions.choiceName) },
        // Strings.
        Entry("concat", replaces: true) { XPathCall.run($0, $1, "concat", 0...unbounded, XPathFunctions.concat) },
        Entry("join") { XPathCall.run($0, $1, "join", 1...unbounded, XPathFunctions.join) },
        Entry("substr") { XPathCall.run($0, $1, "substr", 2...3, XPathFunctions.substr) },
        Entry("ends-with") { XPathCall.run($0, $1, "ends-with", 2...2, XPathFunctions.endsWith) },
        Entry("string-length", replaces: true) { ctxt, nargs in
            // libxml2's own (characters, not UTF-16 units), once the argument the ODK spec
            // requires is there.
            if XPathCall.accepts(ctxt, nargs, "string-length", 1...1) { xmlXPathStringLengthFunction(ctxt, 1) }
        },
        Entry("boolean-from-string") {
            XPathCall.run($0, $1, "boolean-from-string", 1...1, XPathFunctions.booleanFromString)
        },
        Entry("uuid") { XPathCall.run($0, $1, "uuid", 0...1, XPathFunctions.uuid) },
        Entry("regex") { XPathCall.run($0, $1, "regex", 2...2, XPathFunctions.regex) },
        // Numbers.
        Entry("number", replaces: true) { XPathCall.run($0, $1, "number", 0...1, XPathFunctions.number) },
        Entry("round", replaces: true) { XPathCall.run($0, $1, "round", 1...2, XPathFunctions.round) },
        Entry("int") { XPathCall.run($0, $1, "int", 1...1, XPathFunctions.int) },
        Entry("min") { XPathCall.run($0, $1, "min", 1...unbounded) { XPathFunctions.extreme($0, largest: false) } },
        Entry("max") { XPathCall.run($0, $1, "max", 1...unbounded) { XPathFunctions.extreme($0, largest: true) } },
        Entry("random") { XPathCall.run($0, $1, "random", 0...0, XPathFunctions.random) },
        Entry("pow") { XPathCall.run($0, $1, "pow", 2...2) { .number(Foundation.pow($0.number(0), $0.number(1))) } },
        Entry("abs") { XPathCall.run($0, $1, "abs", 1...1) { .number(Swift.abs($0.number(0))) } },
        Entry("log") { XPathCall.run($0, $1, "log", 1...1) { .number(Foundation.log($0.number(0))) } },
        Entry("log10") { XPathCall.run($0, $1, "log10", 1...1) { .number(Foundation.log10($0.number(0))) } },
        Entry("exp") { XPathCall.run($0, $1, "exp", 1...1) { .number(Foundation.exp($0.number(0))) } },
        Entry("exp10") { XPathCall.run($0, $1, "exp10", 1...1) { .number(Foundation.pow(10, $0.number(0))) } },
        Entry("sqrt") { XPathCall.run($0, $1, "sqrt", 1...1) { .number($0.number(0).squareRoot()) } },
        Entry("pi") { XPathCall.run($0, $1, "pi", 0...0) { _ in .number(Double.pi) } },
        Entry("sin") { XPathCall.run($0, $1, "sin", 1...1) { .number(Foundation.sin($0.number(0))) } },
        Entry("cos") { XPathCall.run($0, $1, "cos", 1...1) { .number(Foundation.cos($0.number(0))) } },
        Entry("tan") { XPathCall.run($0, $1, "tan", 1...1) { .number(Foundation.tan($0.number(0))) } },
        Entry("asin") { XPathCall.run($0, $1, "asin", 1...1) { .number(Foundation.asin($0.number(0))) } },
        Entry("acos") { XPathCall.run($0, $1, "acos", 1...1) { .number(Foundation.acos($0.number(0))) } },
        Entry("atan") { XPathCall.run($0, $1, "atan", 1...1) { .number(Foundation.atan($0.number(0))) } },
        Entry("atan2") {
            XPathCall.run($0, $1, "atan2", 2...2) { .number(Foundation.atan2($0.number(0), $0.number(1))) }
        },
        // Selects and checklists.
        Entry("selected") { XPathCall.run($0, $1, "selected", 2...2, XPathFunctions.selected) },
        Entry("count-selected") { XPathCall.run($0, $1, "count-selected", 1...1, XPathFunctions.countSelected) },
        Entry("selected-at") { XPathCall.run($0, $1, "selected-at", 2...2, XPathFunctions.selectedAt) },
        Entry("count-non-empty") { XPathCall.run($0, $1, "count-non-empty", 1...1, XPathFunctions.countNonEmpty) },
        Entry("position", replaces: true) { ctxt, nargs in
            // libxml2's own without an argument: the context position.
            guard nargs != 0 else {
                xmlXPathPositionFunction(ctxt, 0)
                return
            }
            XPathCall.run(ctxt, nargs, "position", 0...1, XPathFunctions.position)
        },
        Entry("checklist") { XPathCall.run($0, $1, "checklist", 2...unbounded, XPathFunctions.checklist) },
        Entry("weighted-checklist") {
            XPathCall.run($0, $1, "weighted-checklist", 2...unbounded, XPathFunctions.weightedChecklist)
        },
        // Dates and times.
        Entry("today") { XPathCall.run($0, $1, "today", 0...0, XPathFunctions.today) },
        Entry("now") { XPathCall.run($0, $1, "now", 0...0, XPathFunctions.now) },
        Entry("date") { XPathCall.run($0, $1, "date", 1...1, XPathFunctions.date) },
        Entry("date-time") { XPathCall.run($0, $1, "date-time", 1...1, XPathFunctions.dateTime) },
        Entry("decimal-date-time") {
            XPathCall.run($0, $1, "decimal-date-time", 1...1, XPathFunctions.decimalDateTime)
        },
        Entry("decimal-time") { XPathCall.run($0, $1, "decimal-time", 1...1, XPathFunctions.decimalTime) },
        Entry("format-date") {
            XPathCall.run($0, $1, "format-date", 2...2) { XPathFunctions.formatDate($0, withTime: false) }
        },
        Entry("format-date-time") {
            XPathCall.run($0, $1, "format-date-time", 2...2) { XPathFunctions.formatDate($0, withTime: true) }
        },
    ]
}

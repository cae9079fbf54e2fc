internal import CLibXML2
import Synchronization

/// A form version's expressions, compiled once (`xmlXPathCtxtCompile`), with the namespace
/// prefixes they may use (`XPathNamespaces.bindings`: the form's, plus `jr`, `orx`, `odk`).
///
/// libxml2 caches a function's pointer in the compiled expression on its first evaluation
/// (a write), so one compiled set must not be evaluated by two threads at once. The program
/// keeps a small pool of sets: each `XPathEvaluator` checks one out on first use and returns
/// it when it goes; a set is compiled anew when all are out (same expressions, so it cannot
/// fail then).
public final class XPathProgram: Sendable {
    /// The expressions, by index.
    public let expressions: [String]
    /// Prefix → namespace URI, as the evaluation contexts register them.
    public let namespaces: [String: String]
    private let idle: Mutex<[CompiledSet]>

    /// Idle sets kept for reuse; more than this are freed when returned.
    static let idleLimit = 8

    /// Compiles every expression; throws the first that does not compile, with its index and
    /// libxml2's message. libxml2 compiles unknown functions and unbound prefixes: those fail at
    /// evaluation (`XPathEvaluationError` 1209, 1219), so the importer checks names itself.
    public init(expressions: [String], namespaces: [String: String]) throws(XPathCompileError) {
        LibXML2.ensureInitialised()
        self.expressions = expressions
        self.namespaces = XPathNamespaces.bindings(namespaces)
        let first = try Self.compile(expressions).get()
        idle = Mutex([first])
    }

    public var count: Int { expressions.count }

    /// A compiled set for one evaluator's exclusive use; give it back with `checkIn`.
    func checkOut() -> CompiledSet {
        if let set = idle.withLock({ $0.popLast() }) { return set }
        do {
            return try Self.compile(expressions).get()
        } catch {
            preconditionFailure("expressions that compiled once no longer compile: \(error)")
        }
    }

    /// The compiled sets waiting in the pool.
    var idleCount: Int { idle.withLock { $0.count } }

    func checkIn(_ set: CompiledSet) {
        idle.withLock { if $0.count < Self.idleLimit { $0.append(set) } }
    }

    /// Compiles all expressions on a scratch context (compiling needs no document).
    private static func compile(_ expressions: [String]) -> Result<CompiledSet, XPathCompileError> {
        guard let context = xmlXPathNewContext(nil) else { preconditionFailure("libxml2 could not allocate") }
        defer { xmlXPathFreeContext(context) }
        let recorder = XPathErrorRecorder()
        recorder.install(on: context)
        var compiled: [xmlXPathCompExprPtr] = []
        compiled.reserveCapacity(expressions.count)
        let set = CompiledSet()
        for (index, expression) in expressions.enumerated() {
            guard let expression = withExtendedLifetime(recorder, { recorder.compile(expression, on: context) }) else {
                set.expressions = compiled
                let error = recorder.error ?? (XPathEvaluationError.syntaxCode, "Invalid expression", 0)
                return .failure(
                    XPathCompileError(index: index, message: error.message, code: error.code, offset: error.offset))
            }
            compiled.append(expression)
        }
        set.expressions = compiled
        return .success(set)
    }

    /// One compiled copy of the program's expressions, owned (and freed) by this object.
    final class CompiledSet: @unchecked Sendable {
        // @unchecked: the pool hands a set to one evaluator at a time (under its mutex).
        fileprivate(set) var expressions: [xmlXPathCompExprPtr] = []

        deinit { for expression in expressions { xmlXPathFreeCompExpr(expression) } }
    }
}

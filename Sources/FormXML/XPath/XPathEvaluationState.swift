import BoundedPatterns
internal import CLibXML2
import Foundation

/// What the ODK functions of one `XPathEvaluator` reach through the context's `userData`:
/// the host, the node the expression is evaluated for (`current()`, `once()`: libxml2 moves
/// the context node inside predicates, this one stays), the secondary instances, and the
/// errors (`XPathErrorRecorder`).
final class XPathEvaluationState: XPathErrorRecorder {
    let host: any XPathHost
    /// `instance('id')`'s documents; kept alive by the evaluator.
    let secondary: [String: xmlDocPtr]
    /// The node the current evaluation is for.
    var boundNode: xmlNodePtr?
    /// The function libxml2 looked up last (name and namespace, pointing into the compiled
    /// expression): the one it did not find when it stops with 1209.
    var lookedUp: (name: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) = (nil, nil)
    /// What is left of the work the `regex()` calls of this submission may share
    /// (``BoundedRegex/submissionProgressLimit``).
    var patternWork = BoundedRegex.submissionProgressLimit

    init(host: any XPathHost, secondary: [String: xmlDocPtr]) {
        self.host = host
        self.secondary = secondary
    }

    /// Makes the context report each function lookup to this state (`lookedUp`); libxml2
    /// then looks in its own table as before.
    func watchLookups(on context: xmlXPathContextPtr) {
        xmlXPathRegisterFuncLookup(
            context,
            { data, name, uri in
                guard let data else { return nil }
                Unmanaged<XPathEvaluationState>.fromOpaque(data).takeUnretainedValue().lookedUp = (name, uri)
                return nil
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The state of the evaluation a function runs in.
    static func of(_ ctxt: xmlXPathParserContextPtr) -> XPathEvaluationState? {
        guard let userData = ctxt.pointee.context?.pointee.userData else { return nil }
        return Unmanaged<XPathEvaluationState>.fromOpaque(userData).takeUnretainedValue()
    }
}

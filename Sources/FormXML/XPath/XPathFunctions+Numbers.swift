internal import CLibXML2
import Foundation

extension XPathFunctions {
    /// `number(v?)`: XPath 1.0's, plus, as the ODK spec extends it, a date or dateTime string
    /// (a node's value included) is its days since 1970-01-01 UTC (`XPathTemporal`). Without an
    /// argument, the context node's value.
    static func number(_ call: XPathCall) -> XPathCall.Result {
        let text: String
        if call.count == 0 {
            guard let node = call.ctxt.pointee.context?.pointee.node else { return .number(.nan) }
            text = XPathCall.string(of: node)
        } else if call.isString(0) || call.isNodeSet(0) {
            text = call.string(0)
        } else {
            return .number(call.number(0))
        }
        if let days = XPathTemporal(text)?.days(in: call.state.host.timeZone) { return .number(days) }
        return .number(XPathValue.number(text))
    }

    /// `round(x, d?)`: `x` to `d` decimals (default 0; negative: tens, hundreds…), halves
    /// toward positive infinity: 2.5 → 3, -2.5 → -2, as XPath 1.0's `round` and JavaRosa (which
    /// rounds the decimal text of `x`, so round(2.675, 2) is 2.68 although the double is a hair
    /// below). NaN and infinities stay; |d| > 30 is NaN (as JavaRosa).
    static func round(_ call: XPathCall) -> XPathCall.Result {
        .number(roundHalfUp(call.number(0), decimals: call.count == 2 ? integer(call.number(1)) : 0))
    }

    static func roundHalfUp(_ x: Double, decimals: Int) -> Double {
        guard x.isFinite, x != 0 else { return x }
        guard abs(decimals) <= 30 else { return .nan }
        // Past 2^53 a double has no fraction to round.
        if decimals >= 0, abs(x) >= 9_007_199_254_740_992 { return x }
        // The shortest decimal text that reads back as x, as JavaRosa's Double.toString.
        guard var magnitude = Decimal(string: "\(abs(x))", locale: Locale(identifier: "en_US_POSIX")) else {
            return .nan
        }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &magnitude, decimals, .plain)
        if x < 0 {
            // Half toward positive infinity is half toward zero for a negative x: a tie goes down.
            var truncated = Decimal()
            NSDecimalRound(&truncated, &magnitude, decimals, .down)
            var rest = magnitude - truncated
            var scaled = Decimal()
            _ = NSDecimalMultiplyByPowerOf10(&scaled, &rest, Int16(decimals), .plain)
            if scaled == Decimal(sign: .plus, exponent: -1, significand: 5) { rounded = truncated }
        }
        let value = NSDecimalNumber(decimal: rounded).doubleValue
        return x < 0 ? -value : value
    }

    /// `int(x)`: `x` without its fraction (toward zero); NaN and infinities stay.
    static func int(_ call: XPathCall) -> XPathCall.Result {
        .number(call.number(0).rounded(.towardZero))
    }

    /// `min(...)` / `max(...)`: over every number given, every node of a node-set included.
    /// Values that are not numbers (an empty node) are passed over, as JavaRosa does; none left
    /// is NaN.
    static func extreme(_ call: XPathCall, largest: Bool) -> XPathCall.Result {
        var result: Double?
        for index in call.arguments.indices {
            let values =
                call.nodes(index).map { $0.map { XPathValue.number(XPathCall.string(of: $0)) } } ?? [
                    call.number(index)
                ]
            for value in values where !value.isNaN {
                result = result.map { largest ? Swift.max($0, value) : Swift.min($0, value) } ?? value
            }
        }
        return .number(result ?? .nan)
    }

    /// `random()`: uniform in [0, 1).
    static func random(_ call: XPathCall) -> XPathCall.Result {
        .number(Double.random(in: 0..<1))
    }

    /// A number as JavaRosa's `intValue()` reads an index or a count: toward zero, NaN as 0,
    /// clamped far beyond any string's length.
    static func integer(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(Swift.max(-1e15, Swift.min(1e15, value.rounded(.towardZero))))
    }
}

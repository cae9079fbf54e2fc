import Foundation

/// How long a client may take to send a request, in total: Hummingbird's idle timeout starts
/// again with every byte, so a client trickling a byte a second would hold a connection for ever.
///
/// The head must arrive within `head` of the connection being ready for it (opened, or the
/// previous response sent: this is also how long an idle keep-alive connection stays open). The
/// body must arrive within `body` of its head, extended by one second for every `minBodyRate`
/// bytes received, so a large upload at a modest speed is not cut off while a trickle is
/// (Apache's `mod_reqtimeout` works the same way). A connection past its deadline is closed.
package struct RequestDeadlines: Sendable, Hashable {
    package var head: Duration
    package var body: Duration
    /// Bytes per second a body must keep up to earn more time; 0 gives none.
    package var minBodyRate: Int

    package init(head: Duration = .seconds(10), body: Duration = .seconds(30), minBodyRate: Int = 1024) {
        self.head = head
        self.body = body
        self.minBodyRate = minBodyRate
    }

    /// The deadlines `FIELDWORK_HEAD_TIMEOUT`, `FIELDWORK_BODY_TIMEOUT` (seconds) and
    /// `FIELDWORK_BODY_MIN_RATE` (bytes per second) set, or the names and values it cannot use.
    static func fromEnvironment(_ environment: [String: String]) -> (RequestDeadlines, [String]) {
        var deadlines = RequestDeadlines()
        var unusable: [String] = []
        func seconds(_ name: String) -> Duration? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Double(text), value > 0, value <= 86_400 else {
                unusable.append("\(name)=\(text) is not a number of seconds between 0 and 86400, like 10 or 2.5.")
                return nil
            }
            return .milliseconds(Int64((value * 1000).rounded()))
        }
        if let head = seconds("FIELDWORK_HEAD_TIMEOUT") { deadlines.head = head }
        if let body = seconds("FIELDWORK_BODY_TIMEOUT") { deadlines.body = body }
        if let text = environment["FIELDWORK_BODY_MIN_RATE"], !text.isEmpty {
            if let rate = Int(text), rate >= 0 {
                deadlines.minBodyRate = rate
            } else {
                unusable.append("FIELDWORK_BODY_MIN_RATE=\(text) is not a whole number of bytes per second, like 1024.")
            }
        }
        return (deadlines, unusable)
    }
}

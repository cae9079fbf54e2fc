extension ServiceFailure {
    /// The failure with every secret replaced by `•••` in each text it holds: a service may echo
    /// a header in its error page, a library may name a URL in its error.
    package func redacting(_ secrets: [String]) -> ServiceFailure {
        let secrets = secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        guard !secrets.isEmpty else { return self }
        func clean(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "•••") }
        }
        func clean(_ messages: [ServiceMessage]) -> [ServiceMessage] {
            messages.map { message in
                var message = message
                message.message = clean(message.message)
                message.code = message.code.map(clean)
                return message
            }
        }
        switch self {
        case .refused(let status, let messages): return .refused(status: status, messages: clean(messages))
        case .unreachable(.connectionFailed(let detail)): return .unreachable(.connectionFailed(clean(detail)))
        case .unreachable(.tls(let detail)): return .unreachable(.tls(clean(detail)))
        case .unreachable(.serviceError(let status, let messages)):
            return .unreachable(.serviceError(status: status, messages: clean(messages)))
        case .unreachable(.timedOut): return self
        case .outcomeUnknown(let detail): return .outcomeUnknown(clean(detail))
        case .redirectRefused(let origin): return .redirectRefused(origin: clean(origin))
        case .badAnswer(let detail): return .badAnswer(clean(detail))
        case .notWritable(var error):
            error.message = clean(error.message)
            return .notWritable(error)
        case .preconditionFailed, .notFound, .answerTooLarge: return self
        }
    }
}

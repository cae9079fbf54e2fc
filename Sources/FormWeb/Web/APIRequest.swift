import Hummingbird

extension Request {
    /// Whether the request is for the JSON API (`/api` and below): answered in JSON, and never
    /// given a browser's cookie.
    var isForAPI: Bool { uri.path == "/api" || uri.path.hasPrefix("/api/") }
}

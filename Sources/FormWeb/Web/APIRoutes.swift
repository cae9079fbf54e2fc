import FormModel
import Hummingbird
import Synchronization

/// The `/api` route group, which answers every error as JSON itself (``APIErrorMiddleware``),
/// with what Hummingbird's router would otherwise answer outside the group: an address under
/// `/api` that no route knows, and a known address asked with a method it does not take (the
/// router finds the address, then no responder for the method, and answers its own 404 with
/// only the global middleware, an HTML page). It notes every route added through it, so that
/// ``refuseTheRest()`` can give both a JSON answer inside the group.
struct APIRoutes: RouterMethods {
    typealias Context = AppRequestContext

    private let group: RouterGroup<Context>
    /// The methods of each address added so far, by path relative to `/api`.
    private let added = Routes()

    private final class Routes: Sendable {
        let methods = Mutex<[String: Set<HTTPRequest.Method>]>([:])
    }

    init(_ group: RouterGroup<Context>) {
        self.group = group
    }

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        added.methods.withLock { _ = $0[path.description, default: []].insert(method) }
        group.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        group.add(middleware: middleware)
        return self
    }

    /// The methods of each address added so far, by path relative to `/api` (`/forms/{id}`):
    /// what the OpenAPI description must describe.
    var routes: [String: Set<HTTPRequest.Method>] { added.methods.withLock { $0 } }

    /// The methods any address of the API may be asked with.
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]

    /// Answers, in JSON: 405 with `Allow` for a known address asked with another method, 404 for
    /// any other address. Call once, after every route of the API was added.
    func refuseTheRest() {
        let known = routes
        for (path, methods) in known {
            let taken = Self.methods.filter(methods.contains).map(\.rawValue)
            let allow = taken.joined(separator: ", ")
            let message = "Use \(Words.list(taken, conjunction: "or")) at this address."
            for method in Self.methods where !methods.contains(method) {
                group.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw HTTPError(.methodNotAllowed, headers: [.allow: allow], message: message)
                }
            }
        }
        for method in Self.methods {
            group.on("**", method: method) { _, _ -> Response in throw HTTPError(.notFound) }
        }
    }
}

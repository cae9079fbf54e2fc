import NIOHTTP1
import Testing

@testable import FormService

@Test("session cookies are kept by name, replaced, dropped when expired, and bounded")
func cookiesKept() {
    let session = ServiceSession()
    #expect(session.cookieHeader == nil)
    session.receive(
        HTTPHeaders([("Set-Cookie", "SAP_SESSIONID=a; path=/; secure"), ("Set-Cookie", "sap-usercontext=c=100")]))
    #expect(session.cookieHeader == "SAP_SESSIONID=a; sap-usercontext=c=100")
    session.receive(HTTPHeaders([("Set-Cookie", "SAP_SESSIONID=b"), ("Set-Cookie", ""), ("Set-Cookie", "novalue")]))
    #expect(session.cookieHeader == "SAP_SESSIONID=b; sap-usercontext=c=100")
    session.receive(HTTPHeaders([("Set-Cookie", "sap-usercontext=; Max-Age=0")]))
    #expect(session.cookieHeader == "SAP_SESSIONID=b")
    session.receive(HTTPHeaders((0..<100).map { ("Set-Cookie", "c\($0)=v") }))
    #expect(session.cookieHeader?.split(separator: ";").count == ServiceSession.maxCookies)
}

@Test("the session's token and cookie values count as secrets")
func sessionSecrets() {
    let session = ServiceSession()
    session.setToken(.value("tok"))
    session.receive(HTTPHeaders([("Set-Cookie", "S=cookie")]))
    #expect(Set(session.secrets) == ["tok", "cookie"])
}

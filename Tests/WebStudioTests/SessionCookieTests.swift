import NarrationCore
import Testing
@testable import WebStudio

@Suite("The reading service's session cookie")
struct SessionCookieTests {
    @Test("HttpOnly, SameSite=Strict, Path=/, as long as a session can last; Secure over https only")
    func attributes() {
        let policy = SessionPolicy(idleTimeout: 3600, lifetime: 43_200)
        #expect(SessionCookie.set("abc", secure: false, policy: policy) == "narrate_account=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200")
        #expect(SessionCookie.set("abc", secure: true, policy: policy) == "narrate_account=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200; Secure")
    }

    @Test("signing out makes the browser forget it")
    func cleared() {
        #expect(SessionCookie.cleared(secure: false) == "narrate_account=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
        #expect(SessionCookie.cleared(secure: true) == "narrate_account=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0; Secure")
    }

    @Test("read from a Cookie header among others; the personal studio's cookie is not an account's")
    func read() {
        #expect(SessionCookie.token(in: "a=1; narrate_account=xyz; b=2") == "xyz")
        #expect(SessionCookie.token(in: "narrate_session=xyz") == nil)
        #expect(SessionCookie.token(in: "narrate_account=") == nil)
        #expect(SessionCookie.token(in: nil) == nil)
    }
}

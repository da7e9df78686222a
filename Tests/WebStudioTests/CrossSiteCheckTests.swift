import Testing
@testable import WebStudio

/// A reading service's requests that change something come from its own pages, with JSON bodies.
@Suite("The reading service's cross-site rule")
struct CrossSiteCheckTests {
    static let own = "https://narrate.example.org"
    static let foreign = CrossSiteCheck.Verdict.refuse(status: 403, sentence: "Requests from other sites are refused: open the service's own page.")
    static let jsonOnly = CrossSiteCheck.Verdict.refuse(status: 415, sentence: "The service takes JSON requests only: reload the page and try again.")

    private func verdict(
        _ method: String, origin: String? = nil, fetchSite: String? = nil, contentType: String? = nil, webSocket: Bool = false
    ) -> CrossSiteCheck.Verdict {
        CrossSiteCheck.verdict(method: method, origin: origin, fetchSite: fetchSite, contentType: contentType, ownOrigin: Self.own, isWebSocket: webSocket)
    }

    @Test("every method that changes something, from another site's page, is refused", arguments: ["POST", "PUT", "PATCH", "DELETE"])
    func foreignOrigin(method: String) {
        #expect(verdict(method, origin: "https://evil.example", contentType: "application/json") == Self.foreign)
        #expect(verdict(method, origin: "http://narrate.example.org", contentType: "application/json") == Self.foreign)  // the scheme counts
        #expect(verdict(method, origin: "null", contentType: "application/json") == Self.foreign)  // a sandboxed frame or a file
        #expect(verdict(method, origin: Self.own, contentType: "application/json") == .allow)
        #expect(verdict(method, origin: Self.own) == .allow)  // no body at all
    }

    @Test("without an Origin, only Sec-Fetch-Site: same-origin lets a change through")
    func withoutOrigin() {
        #expect(verdict("POST", contentType: "application/json") == Self.foreign)
        #expect(verdict("DELETE") == Self.foreign)
        #expect(verdict("POST", fetchSite: "cross-site", contentType: "application/json") == Self.foreign)
        #expect(verdict("POST", fetchSite: "same-site", contentType: "application/json") == Self.foreign)
        #expect(verdict("POST", fetchSite: "none") == Self.foreign)
        #expect(verdict("POST", fetchSite: "same-origin", contentType: "application/json") == .allow)
    }

    @Test("the WebSocket upgrade is a change: it needs the own origin")
    func webSocket() {
        #expect(verdict("GET", webSocket: true) == Self.foreign)
        #expect(verdict("GET", origin: "https://evil.example", webSocket: true) == Self.foreign)
        #expect(verdict("GET", origin: Self.own, webSocket: true) == .allow)
    }

    @Test("reading needs no Origin, but a foreign one is refused all the same")
    func reading() {
        #expect(verdict("GET") == .allow)
        #expect(verdict("HEAD") == .allow)
        #expect(verdict("GET", origin: Self.own) == .allow)
        #expect(verdict("GET", origin: "https://evil.example") == Self.foreign)
    }

    @Test("bodies a plain form on another site can send are refused, even from the own origin", arguments: [
        "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", "text/plain;charset=UTF-8", "application/jsonp",
        "application/json-seq", "",
    ])
    func formTypes(type: String) {
        #expect(verdict("POST", origin: Self.own, contentType: type) == Self.jsonOnly)
    }

    @Test("JSON with or without parameters, in any case, is JSON")
    func json() {
        for type in ["application/json", "application/json; charset=utf-8", "Application/JSON", " application/json ;charset=utf-8"] {
            #expect(CrossSiteCheck.isJSON(type), "\(type)")
        }
    }
}

/// Whether a request to the reading service may be a forged one from another site: every
/// request that changes something (POST, PUT, PATCH, DELETE) and the WebSocket upgrade must come
/// from the service's own pages, and bodies must be JSON, which no plain HTML form on another
/// site can send.
///
/// Pure: the middleware gives a request's parts and does what the verdict says.
enum CrossSiteCheck {
    enum Verdict: Equatable {
        case allow
        /// Refuse with this status and one sentence.
        case refuse(status: Int, sentence: String)
    }

    static let foreignOrigin = "Requests from other sites are refused: open the service's own page."
    static let jsonOnly = "The service takes JSON requests only: reload the page and try again."

    /// - Parameters:
    ///   - method: the request's method, upper case.
    ///   - origin: the `Origin` header, if any (browsers send it with every POST and WebSocket).
    ///   - fetchSite: the `Sec-Fetch-Site` header, if any: asked only when `origin` is absent.
    ///   - contentType: the `Content-Type` header, if any.
    ///   - ownOrigin: the service's origin as the browser sees it, `https://host:port`.
    static func verdict(
        method: String, origin: String?, fetchSite: String?, contentType: String?, ownOrigin: String, isWebSocket: Bool
    ) -> Verdict {
        if let origin, origin != ownOrigin { return .refuse(status: 403, sentence: foreignOrigin) }
        let changes = isWebSocket || !["GET", "HEAD", "OPTIONS"].contains(method)
        guard changes else { return .allow }
        if origin == nil, fetchSite?.lowercased() != "same-origin" { return .refuse(status: 403, sentence: foreignOrigin) }
        if let contentType, !isWebSocket, !isJSON(contentType) { return .refuse(status: 415, sentence: jsonOnly) }
        return .allow
    }

    /// Whether a `Content-Type` is JSON (`application/json`, with parameters or not).
    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return media == "application/json"
    }
}

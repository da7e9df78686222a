import NarrationCore

/// The reading service's session cookie: the secret only the server can look up, kept by the
/// browser where no script can read it (HttpOnly), sent only with the service's own requests
/// (SameSite=Strict, Path=/), only over https when the service is reached by https (Secure).
/// It lasts as long as a session can (`SessionPolicy.lifetime`); the server ends it sooner
/// when idle or signed out.
enum SessionCookie {
    /// Another name than the personal studio's cookie, so that a browser's old studio cookie is
    /// never taken for an account's.
    static let name = "narrate_account"

    /// The `Set-Cookie` value that begins the session `token`.
    static func set(_ token: String, secure: Bool, policy: SessionPolicy) -> String {
        "\(name)=\(token); HttpOnly; SameSite=Strict; Path=/; Max-Age=\(Int(policy.lifetime))\(secure ? "; Secure" : "")"
    }

    /// The `Set-Cookie` value that makes the browser forget the cookie.
    static func cleared(secure: Bool) -> String {
        "\(name)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0\(secure ? "; Secure" : "")"
    }

    /// The session secret in a `Cookie` header, if any.
    static func token(in header: String?) -> String? {
        header.flatMap { AccessGuard.cookie(name, in: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}

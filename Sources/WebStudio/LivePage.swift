import Narration
import NarrationCore
import Synchronization

/// One page's live connection as the server authorises it: in a reading service every message
/// that changes an article is asked of `Permissions.may` with the account's relation to it, and
/// the session is checked on every message and every few seconds (`closingReason`), so that a
/// page whose account was disabled or signed out everywhere is closed, and so is an article's
/// page whose account lost the article (given to someone else, left open, withdrawn). In the personal studio
/// (no door) everything is allowed, as the cookie already was checked.
final class LivePage: Sendable {
    enum Verdict: Equatable {
        case allowed
        /// Not this account's to do: the sentence goes to the page, the connection stays.
        case refused(String)
        /// The session is over: the connection closes with the sentence.
        case sessionEnded(String)
    }

    let host: StudioHost
    let door: ServiceDoor?
    let signedIn: SignedInRequest?
    /// The article of an article's studio (`/live?article=ID`), and what its account could do to
    /// it when the page came (`record`, else `view`): the page keeps the studio only while the
    /// account still may. Nil for the shared studio.
    let studioOf: (article: ArticleID, access: ServiceAction)?
    /// Why the page was closed (its session ended, or its article is no longer its account's);
    /// nil while it is open.
    private let closed = Mutex<String?>(nil)
    /// The article last asked about for `mayReceive`, and the answer.
    private let seen = Mutex<(article: ArticleID?, allowed: Bool)?>(nil)
    /// Asks the page's watch (`checks`) to check the page now rather than at its next interval.
    private let checkNow: AsyncStream<Void>.Continuation
    /// When to check the session and the access again: every `ServiceDoor.sessionCheckInterval`
    /// and whenever the article's desk record changed (`recheck`).
    let checks: AsyncStream<Void>

    /// Why an article's page loses its studio when its account no longer may work on the
    /// article: a WebSocket close reason (at most 123 bytes).
    static let noLongerYours = "This article is no longer yours (the coordinator changed it): open your articles from your home page."

    init(host: StudioHost, door: ServiceDoor?, signedIn: SignedInRequest?, studioOf: (article: ArticleID, access: ServiceAction)? = nil) {
        self.host = host
        self.door = door
        self.signedIn = signedIn
        self.studioOf = studioOf
        (checks, checkNow) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Check the page now (the article's desk record changed, or the interval passed).
    func recheck() { checkNow.yield() }

    /// No more checks: the page has gone.
    func endChecks() { checkNow.finish() }

    /// False once a check found the session ended.
    var isOpen: Bool { closed.withLock { $0 == nil } }

    /// Why a message is refused while the catalog cannot be asked (its server restarting): the
    /// session goes on, and a take's pieces stay in the page, which sends them again.
    static let catalogAway = "The server cannot check your session just now: try again in a moment. Your takes are kept on this computer meanwhile."

    /// Whether the page may send `message` now: the session is checked again (as the person's
    /// own act, it keeps the session from going idle), then the action on its article. While
    /// the catalog cannot be asked, messages are refused one by one and the page stays open.
    func authorise(_ message: PageMessage) async -> Verdict {
        guard let door else { return .allowed }
        if let reason = closed.withLock({ $0 }) { return .sessionEnded(reason) }
        let account: Account
        switch await currentAccount(touching: true) {
        case .signedIn(let signedIn): account = signedIn
        case .ended: return .sessionEnded(ServiceDoor.sessionEnded)
        case .unknown: return .refused(Self.catalogAway)
        }
        switch await lost(studioOf, by: account, door: door) {
        case true?: return .sessionEnded(close(Self.noLongerYours))
        case nil: return .refused(Self.catalogAway)
        case false?: break
        }
        let wanted = MessageAction.of(message)
        let article: ArticleID?
        switch wanted.target {
        case .open:
            guard let open = host.article else {
                // Without an open article only looking around is allowed.
                return wanted.action == .view ? .allowed : .refused(ServiceDoor.notAllowedArticle)
            }
            article = open.id
        case .named(let id):
            article = ArticleID(id)
        case .none:
            article = nil
        }
        let allowed: Bool
        do throws(NarrationError) {
            allowed = try await door.checkedMay(account, wanted.action, article: article)
        } catch {
            return .refused(Self.catalogAway)
        }
        return allowed ? .allowed : .refused(article == nil ? ServiceDoor.notAllowed : ServiceDoor.notAllowedArticle)
    }

    /// Whether the studio's messages may go to this page: in a reading service only while its
    /// account may see the article open in the studio (`view`), asked again whenever another
    /// article opens. `firstRefusal` is true on the first message held back for an article, so
    /// that the page is told once why it shows nothing.
    func mayReceive() async -> (allowed: Bool, firstRefusal: Bool) {
        guard let door, let signedIn else { return (true, false) }
        let current = host.article?.id
        if let known = seen.withLock({ $0 }), known.article == current { return (known.allowed, false) }
        let allowed = current == nil ? true : await door.may(signedIn.account, .view, article: current)
        seen.withLock { $0 = (current, allowed) }
        return (allowed, !allowed)
    }

    /// Why the page must close now, or nil while it may stay: its session ended, or (an
    /// article's studio) its account may no longer do to the article what it came to do.
    /// Checked without counting as the person's use of the session. A catalog that cannot be
    /// asked just now closes nothing: the next check asks again.
    func closingReason() async -> String? {
        guard let door else { return nil }
        if let reason = closed.withLock({ $0 }) { return reason }
        switch await currentAccount(touching: false) {
        case .signedIn(let account):
            return await lost(studioOf, by: account, door: door) == true ? close(Self.noLongerYours) : nil
        case .ended:
            return ServiceDoor.sessionEnded
        case .unknown:
            return nil
        }
    }

    /// Whether the account lost the article its page came for: it may no longer do what it came
    /// to do, and the article is no longer theirs (given to someone else, left open, withdrawn).
    /// Their own send (Ready for review, or Published with review off) takes away `record` but
    /// not the article: the page stays to show what came of it, and the server refuses changes
    /// message by message. False for the shared studio; nil when the catalog cannot be asked.
    private func lost(_ studioOf: (article: ArticleID, access: ServiceAction)?, by account: Account, door: ServiceDoor) async -> Bool? {
        guard let studioOf else { return false }
        do throws(NarrationError) {
            guard try await !door.checkedMay(account, studioOf.access, article: studioOf.article) else { return false }
            return try await !door.stillHolds(account, article: studioOf.article)
        } catch {
            return nil
        }
    }

    /// The page's account as its session says now.
    private enum SessionCheck {
        case signedIn(Account)
        /// Signed out, expired, or the account disabled: the page closes.
        case ended
        /// The catalog could not be asked (its server restarting): neither.
        case unknown
    }

    private func currentAccount(touching: Bool) async -> SessionCheck {
        guard let door, let signedIn, isOpen else { return .ended }
        let accounts = door.accounts
        let token = signedIn.token
        do throws(NarrationError) {
            return .signedIn(
                try await BlockingWork.run(named: "narrate-web-session") { () throws(NarrationError) in
                    try accounts.session(token, touching: touching)
                })
        } catch where error.kind == .accountRefused {
            _ = close(ServiceDoor.sessionEnded)
            return .ended
        } catch {
            return .unknown
        }
    }

    /// Marks the page closed for `reason` (the first reason stays); returns the reason it has.
    private func close(_ reason: String) -> String {
        closed.withLock { closed in
            if closed == nil { closed = reason }
            return closed ?? reason
        }
    }
}

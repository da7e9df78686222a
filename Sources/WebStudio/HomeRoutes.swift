import Foundation
import Hummingbird
import Narration
import NarrationCore

/// The volunteer's home page's routes: the articles that are theirs and the open ones to claim
/// (`GET /api/my-articles`), and the claim (`POST /api/desk/ARTICLE/claim`). Both ask the desk
/// (`DeskService`) as the signed-in account, which checks `Permissions.may`. Service.md lists them.
extension WebStudioServer {
    /// One article as the home page shows it: its deadline and state in words.
    struct HomeArticle: Encodable {
        var article: String
        var title: String
        var publication: String
        var section: String
        /// "2026-11-27" or "2026-11-27T18:00" (UTC), or "" for none.
        var deadline: String
        var late: Bool
        /// "Assigned", "Recording", "Pickups requested", "Open"…
        var state: String
        /// "assigned" or "claimed"; "" while open.
        var taking: String
    }

    /// The home page's articles: the account's own still to do, and the open ones.
    struct HomeArticles: Encodable {
        var mine: [HomeArticle]
        var open: [HomeArticle]
    }

    /// The states in which an article is the volunteer's to work on.
    static let workingStates: Set<DeskState> = [.assigned, .recording, .pickupsRequested]

    /// The status of a claim the desk refused.
    static func claimRefusalStatus(_ error: NarrationError) -> Int {
        switch error.kind {
        case .notPermitted: 403
        case .deskRefused: 409
        case .unknownArticle: 404
        default: 500
        }
    }

    /// Adds the home page's routes (a reading service with a desk).
    static func addHome(to router: Router<StudioRequestContext>, desk: DeskService) {
        router.get("/api/my-articles") { _, context -> Response in
            guard let account = context.signedIn?.account else { return Self.refusal(401, ServiceDoor.signInFirst) }
            do throws(NarrationError) {
                let entries = try await BlockingWork.run(named: "narrate-web-desk") { () throws(NarrationError) in
                    try desk.list(by: .account(account))
                }
                return Self.json(200, homeArticles(entries, for: account.name, now: Date()))
            } catch {
                return Self.refusal(error.kind == .notPermitted || error.kind == .accountRefused ? 403 : 500, error.message)
            }
        }
        router.post("/api/desk/:id/claim") { _, context -> Response in
            guard let account = context.signedIn?.account else { return Self.refusal(401, ServiceDoor.signInFirst) }
            let wanted = context.parameters.get("id") ?? ""
            guard (1...64).contains(wanted.utf8.count), wanted.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                return Self.refusal(404, "There is no article \(wanted.prefix(64)) on the desk: reload your home page.")
            }
            do throws(NarrationError) {
                let entry = try await BlockingWork.run(named: "narrate-web-desk") { () throws(NarrationError) in
                    try desk.claim(ArticleID(wanted), by: .account(account))
                }
                return Self.json(200, ["article": entry.article.rawValue, "state": entry.state.title])
            } catch {
                return Self.refusal(claimRefusalStatus(error), error.message)
            }
        }
    }

    /// The entries an account may see, sorted for its home page: its own to work on, and the open.
    static func homeArticles(_ entries: [DeskEntry], for account: AccountName, now: Date) -> HomeArticles {
        func row(_ entry: DeskEntry) -> HomeArticle {
            HomeArticle(
                article: entry.article.rawValue, title: entry.title, publication: entry.publication, section: entry.section,
                deadline: entry.deadline?.description ?? "", late: entry.isLate(at: now), state: entry.state.title,
                taking: entry.taking?.rawValue ?? "")
        }
        return HomeArticles(
            mine: entries.filter { $0.assignee == account && workingStates.contains($0.state) }.map(row),
            open: entries.filter { $0.state == .open }.map(row))
    }
}

import Foundation
import Narration
import NarrationCore

/// What a studio in a reading service tells the desk and the hours as its pages work: a take
/// kept moves a desk article to Recording (`DeskService.recordedTake`), counts towards the
/// hours of the account whose page recorded it (`AccountActivity.take`, or `pickup` while the
/// article is Pickups requested), and marks done the pickups it covers (`AccountTake`); Send
/// asks `DeskService.send`. An article that is not on the desk (one made with the personal
/// studio's form) is left to the studio alone.
///
/// Called on the studio's own thread, which may block: the stores are SQLite.
struct StudioDeskLink: Sendable {
    let desk: DeskService
    /// Where hours are recorded; nil records none.
    let activity: AccountActivity?
    /// The pickups a take may do, and the library to read its article from; nil marks none.
    var pickups: (completion: PickupCompletion, library: NarrationLibrary)? = nil
    /// The accounts, the host's runner of the catalog's queue and the service's recordings store,
    /// for a send with review off, which is a job any host can finish (`SentDelivery`).
    var sends: (accounts: AccountService, runner: WorkRunner?, recordings: RecordingStore?)? = nil

    /// Whether the service sends an article to review rather than delivering it.
    var reviewIsOn: Bool { desk.reviewIsOn }

    /// Whether `article` is on the desk.
    func isOnDesk(_ article: ArticleID) -> Bool {
        ((try? desk.store.entry(article)) ?? nil) != nil
    }

    /// `account` kept a take of `seconds` on `article`, which made the chunks `made`: the desk
    /// hears of it, the hours count it, and the pickups it covers are done. Returns the sentence
    /// for the page: the refusal, or which pickups the take did; nil for neither.
    func takeKept(on article: ArticleID, by account: Account, seconds: Double, made: Set<ChunkID> = []) -> String? {
        do throws(NarrationError) {
            let take = AccountTake(desk: desk, activity: activity, pickups: pickups)
            return AccountTake.sentence(try take.kept(on: article, by: account, as: .account(account), seconds: seconds, made: made))
        } catch {
            return error.message
        }
    }

    /// `account` sends `article` to review (review on; with review off see `sendAndDeliver`).
    /// - Throws: the desk's refusal (`notPermitted`, `deskRefused`).
    @discardableResult
    func send(_ article: ArticleID, by account: Account) throws(NarrationError) -> DeskEntry {
        try desk.send(article, by: .account(account))
    }

    /// With review off: `account` sends `article` straight to listeners, as `narrate desk send`
    /// does: the desk judges the send, the article is exported and delivered through the outbox,
    /// and only once the delivery is checked does the desk say Published (`DeskDelivery`).
    /// - Returns: the result's lines once delivered, or once another host of the service is
    ///   found delivering it; else the refusal (which changes nothing) or the delivery's error
    ///   (the article stays Recording, its job waiting in the outbox, and the service tries again).
    func sendAndDeliver(_ article: Article, by account: Account, library: NarrationLibrary, sending: DeskDelivery.Sending) async -> Result<[String], NarrationError> {
        do throws(NarrationError) {
            let accounts = sends?.accounts ?? AccountService(store: library.accountStore)
            guard let (job, entry) = try await DeskDelivery(library: library, desk: desk).sendAndDeliver(
                article, by: .account(account), sending: sending, accounts: accounts, runner: sends?.runner, recordings: sends?.recordings)
            else {
                return .success(["Another server of the service is delivering “\(article.title)”: the desk says Published once listeners can hear it."])
            }
            return .success([
                "In the outbox: \(job.file.path)",
                "Sent to \(job.remotePath ?? sending.destination.description) and checked.",
                "On the desk it is \(entry.state.title): listeners hear it now.",
            ])
        } catch {
            return .failure(error)
        }
    }

    /// Why an article cannot go straight to listeners from the studio.
    static func noDestination(_ title: String) -> String {
        "“\(title)” cannot go to listeners: the service has no destination to deliver to. Ask the service's operator to set one."
    }

    /// What the page is told once an article went to review.
    static func sentForReview(_ title: String) -> String {
        "Sent “\(title)” for review: a proof-listener hears it before listeners do, so it is not published yet."
    }
}
